// Cards: every module of cards/, imported with the page (eager), each
// exporting its card as the default export.
const cards = import.meta.glob<{ default: { title: string; order: number } }>("./cards/*.ts", { eager: true });
// Sections: loaded when asked for (lazy), drafts left out.
const sections = import.meta.glob<{ render: () => string }>(["./sections/*.ts", "!**/*.draft.ts"]);
// Notes: the text of each file, as ?raw gives it.
const notes = import.meta.glob<string>("./notes/*.txt", { eager: true, query: "?raw", import: "default" });

document.body.innerHTML = `
  <p id="cards"></p>
  <p id="keys"></p>
  <p id="sections"></p>
  <p id="notes"></p>`;
const text = (id: string, value: string) => (document.getElementById(id)!.textContent = value);

const ordered = Object.values(cards)
  .map((module) => module.default)
  .sort((a, b) => a.order - b.order);
text("cards", ordered.map((card) => card.title).join(", "));
text("keys", Object.keys(cards).join(" "));
text("notes", Object.values(notes).map((note) => note.trim()).join("|"));

Promise.all(Object.values(sections).map((load) => load())).then((loaded) => {
  text("sections", loaded.map((section) => section.render()).join(" + "));
});

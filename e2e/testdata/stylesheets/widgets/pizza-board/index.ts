type Output = { places?: string[] };

const root = document.getElementById("pizza-board-root")!;
const places = ((window as { openai?: { toolOutput?: Output } }).openai?.toolOutput?.places) ?? ["Tony's", "Lucia", "Forno"];

root.innerHTML = `<main class="p-4 rounded-card border-2 border-brand">
  <h1 id="board-title" class="board-title text-brand font-bold">Pizza board</h1>
  <p id="board-warning" class="board-only-unstyled">This line shows only when the stylesheets are lost.</p>
  <ul id="places" class="mt-2 space-y-1"></ul>
</main>`;
const list = root.querySelector("#places")!;
for (const name of places) {
  const li = document.createElement("li");
  li.className = "text-sm";
  li.textContent = name;
  list.append(li);
}

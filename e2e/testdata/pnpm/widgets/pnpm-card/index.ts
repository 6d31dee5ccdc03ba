import "./app.css";

const root = document.getElementById("root")!;
root.innerHTML = `<main class="p-4 rounded-lg bg-white">
  <h1 id="title" class="text-brand font-bold uppercase">Installed with pnpm</h1>
  <p id="note" class="hidden">shown only without styles</p>
</main>`;

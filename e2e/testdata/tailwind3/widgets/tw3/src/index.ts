import "./styles.css";

const root = document.getElementById("root")!;
root.innerHTML = `<h1 id="tw3-title" class="text-ocean font-semibold p-3">Tailwind v3 in a widget</h1>`;

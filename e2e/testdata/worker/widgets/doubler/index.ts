import Squarer from "./square.ts?worker";

document.body.innerHTML = `<p id="doubled">…</p><p id="squared">…</p>`;

function ask(worker: Worker, value: number, id: string) {
  worker.onmessage = (e: MessageEvent<number>) => {
    document.getElementById(id)!.textContent = String(e.data);
  };
  worker.postMessage(value);
}

ask(new Worker(new URL("./double.ts", import.meta.url), { type: "module" }), 21, "doubled");
ask(new Squarer(), 21, "squared");

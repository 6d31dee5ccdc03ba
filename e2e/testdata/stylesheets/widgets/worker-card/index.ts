// Starts its worker the way mapbox-gl 3 does: through a global object, from
// a blob: URL. The spec CSP blocks it (the build warns); the widget falls
// back to the main thread.
const root = document.getElementById("worker-card-root")!;
root.innerHTML = `<p id="worker-result" class="p-3 text-brand font-bold">computing…</p>`;
const result = root.querySelector("#worker-result")!;

function show(value: number, where: string) {
  result.textContent = `${value} (${where})`;
}

const source = "self.onmessage = (e) => self.postMessage(e.data * 2);";
try {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const worker = new self.Worker(url);
  worker.onmessage = (e: MessageEvent<number>) => show(e.data, "worker");
  worker.onerror = () => show(21 * 2, "main thread");
  worker.postMessage(21);
} catch {
  show(21 * 2, "main thread");
}

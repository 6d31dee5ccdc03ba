const url = (globalThis as { workerUrl?: string }).workerUrl ?? "./worker.js";
const worker = new globalThis.Worker(url);
worker.onmessage = (e) => { document.body.textContent = String(e.data); };
worker.postMessage(21);

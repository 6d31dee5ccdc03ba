// Feature-detects workers through the global, and computes on the main thread.
const hasWorkers = typeof self.Worker === "function";
document.body.textContent = `${21 * 2} (workers: ${hasWorkers})`;

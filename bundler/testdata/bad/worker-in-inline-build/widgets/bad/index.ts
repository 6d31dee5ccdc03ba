const n = 1;
const w = new Worker(new URL("./work.ts", import.meta.url), { type: "module" });
w.postMessage(n);

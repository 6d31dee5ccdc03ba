const code = "self.onmessage = (e) => self.postMessage(e.data * 2);";
const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
const worker = new self.Worker(url);
worker.onmessage = (e) => { document.body.textContent = String(e.data); };
worker.postMessage(21);

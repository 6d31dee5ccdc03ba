// Written against the MCP Apps messages alone, as a hand-written widget
// without a library is: it listens for the host's notifications and sends
// tools/call itself, and never starts the handshake. widgetd's bridge level
// "core" (the handshake core) makes the session it listens on.
import "../firstrender";
import "../matrix.css";

const $ = (id: string) => document.getElementById(id)!;
const stats = { renders: 0 };
const pending = new Map<string, (message: any) => void>();
let nextId = 0;
window.addEventListener("message", (event: MessageEvent) => {
  const message = event.data;
  if (event.source !== window.parent || message?.jsonrpc !== "2.0") return;
  const params = message.params ?? {};
  if (message.method == "ui/notifications/tool-input") $("input").textContent = JSON.stringify(params.arguments ?? null);
  else if (message.method == "ui/notifications/tool-result") (stats.renders++, ($("output").textContent = JSON.stringify(params.structuredContent ?? null)));
  else if (message.method == "ui/notifications/host-context-changed" && params.theme) $("theme").textContent = params.theme;
  else if (message.method === undefined && pending.has(message.id)) (pending.get(message.id)!(message), pending.delete(message.id));
});
(window as any).t = {
  call: () =>
    new Promise((resolve, reject) => {
      const id = "raw" + ++nextId;
      pending.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result)));
      window.parent.postMessage({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a: 1 } } }, "*");
    }),
  stats: () => stats,
};

// Written only against the official ext-apps App class (no widgetd import of
// its own), with one view tool the host can call.
import "../firstrender";
import "../matrix.css";
import { App } from "@modelcontextprotocol/ext-apps";

const $ = (id: string) => document.getElementById(id)!;
const app = new App({ name: "matrix-app", version: "1.0.0" }, { tools: { listChanged: true } });
app.registerTool("pick", { description: "Pick the shown item" }, async () => ({ content: [{ type: "text", text: "picked by App" }] }));
app.ontoolinput = (p) => void ($("input").textContent = JSON.stringify(p.arguments ?? null));
app.ontoolresult = (r) => void ($("output").textContent = JSON.stringify(r.structuredContent ?? null));
app.onhostcontextchanged = (c) => void (c.theme && ($("theme").textContent = c.theme));
app.connect().then(
  () => void ($("theme").textContent = app.getHostContext()?.theme ?? ""),
  (e) => void ($("theme").textContent = "no host: " + e.message),
);
(window as any).t = {
  call: () => app.callServerTool({ name: "add", arguments: { a: 1 } }),
  stats: () => ({}),
};

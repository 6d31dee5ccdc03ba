// Written only against a vendored App-like class (./vendored-app.ts), the way
// a framework that bundles its own copy of ext-apps' App is.
import "../firstrender";
import "../matrix.css";
import { VendoredApp } from "./vendored-app";

const $ = (id: string) => document.getElementById(id)!;
const app = new VendoredApp({ name: "matrix-vendored", version: "1.0.0" });
app.ontoolinput = (p) => void ($("input").textContent = JSON.stringify(p.arguments ?? null));
app.ontoolresult = (r) => void ($("output").textContent = JSON.stringify(r.structuredContent ?? null));
app.onhostcontextchanged = (c) => void (c.theme && ($("theme").textContent = c.theme));
app.connect().then(
  () => void ($("theme").textContent = app.getHostContext().theme ?? ""),
  (e) => void ($("theme").textContent = "no host: " + e.message),
);
(window as any).t = {
  call: () => app.callServerTool({ name: "add", arguments: { a: 1 } }),
  stats: () => ({}),
};

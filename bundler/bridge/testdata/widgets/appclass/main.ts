// Test widget using only the official ext-apps App class (no widgetd API);
// widgetd still injects its bridge ahead of this code.
import "../widget.css";
import { App } from "@modelcontextprotocol/ext-apps";

const out = document.getElementById("app")!;
const app = new App({ name: "appclass", version: "1.2.3" });
app.ontoolinput = (p) => void (out.dataset.input = JSON.stringify(p.arguments));
app.ontoolresult = (r) => void (out.textContent = JSON.stringify(r.structuredContent));
app.onteardown = async () => ((document.body.dataset.torn = "yes"), {});
app.connect().then(() => (document.body.dataset.connected = "yes"));
(window as any).app = app;

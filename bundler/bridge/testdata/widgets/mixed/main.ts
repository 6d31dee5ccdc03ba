// Test widget using the official App class AND the widgetd API at the same
// time: the bridge must adopt App's session, never handshake a second time.
import "../widget.css";
import { App } from "@modelcontextprotocol/ext-apps";
import { widget } from "widgetd";

const out = document.getElementById("app")!;
widget.onToolResult((r) => void (out.dataset.widgetd = JSON.stringify(r.structuredContent)));
const app = new App({ name: "mixed", version: "1.0.0" });
app.ontoolresult = (r) => void (out.dataset.app = JSON.stringify(r.structuredContent));
app.connect();
(window as any).t = { widget, app };

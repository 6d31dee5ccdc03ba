// Written against the widgetd API, with one view tool the host can call.
import "../firstrender";
import "../matrix.css";
import widget from "widgetd";
import { registerTool } from "widgetd/tools";

const $ = (id: string) => document.getElementById(id)!;
registerTool("pick", { description: "Pick the shown item" }, () => ({ content: [{ type: "text", text: "picked by widgetd" }] }));
$("first").textContent = JSON.stringify(widget.getState());
widget.onToolInput((a) => ($("input").textContent = JSON.stringify(a)));
let results = 0;
widget.onToolResult((r) => {
  results++;
  $("output").textContent = JSON.stringify(r.structuredContent ?? null);
});
widget.onHostContextChanged((c) => ($("theme").textContent = c.theme ?? ""));
widget.onStateChanged((s) => ($("state").textContent = JSON.stringify(s)));
$("theme").textContent = widget.hostContext.theme ?? "";
$("state").textContent = JSON.stringify(widget.state);
(window as any).t = {
  call: () => widget.callTool("add", { a: 1 }),
  setState: (s: object) => widget.setState({ ...widget.getState(), ...s }),
  stats: () => ({ results }),
  result: () => widget.toolResult,
};

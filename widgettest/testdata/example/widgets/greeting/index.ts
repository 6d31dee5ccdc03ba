import { widget } from "widgetd";

widget.onToolResult((r) => {
  const p = document.getElementById("greeting") ?? document.body.appendChild(document.createElement("p"));
  p.id = "greeting";
  p.textContent = "Hello, " + (r.structuredContent as { name: string }).name;
});

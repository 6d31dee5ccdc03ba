import { widget } from "widgetd";

const title = document.createElement("h2");
document.getElementById("root")!.append(title);
widget.onToolResult(() => (title.textContent = String(widget.toolOutput?.title ?? "")));

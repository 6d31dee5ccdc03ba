// The {{.Name}} widget: renders the tool result and calls the tool again
// from a button. The "widgetd" module is the client bridge every widget
// gets (widgetd.d.ts describes it); it works on every MCP Apps host and in
// ChatGPT.
import { widget } from "widgetd";
import "./style.css";

interface Greeting {
  name?: string;
}

const root = document.getElementById("root")!;
const title = document.createElement("h1");
title.className = "greeting";
title.textContent = "Waiting for the tool result…";
const again = document.createElement("button");
again.type = "button";
again.textContent = "Greet again";
root.append(title, again);

function show(data: Greeting) {
  title.textContent = `Hello, ${data.name ?? "world"}!`;
}

widget.onToolResult((result) => show((result.structuredContent ?? {}) as Greeting));

again.addEventListener("click", async () => {
  again.disabled = true;
  try {
    const result = await widget.callTool("{{.Name}}", { name: "again" });
    show((result.structuredContent ?? {}) as Greeting);
  } catch (err) {
    title.textContent = `Error: ${(err as Error).message}`;
  } finally {
    again.disabled = false;
  }
});

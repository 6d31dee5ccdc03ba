import { widget } from "widgetd";
import "./mcp-app.css";

const timeEl = document.getElementById("server-time")!;
const button = document.getElementById("get-time-btn") as HTMLButtonElement;

function show(result: { structuredContent?: Record<string, unknown> }) {
  const time = result.structuredContent?.time;
  timeEl.textContent = typeof time === "string" ? time : "[no time]";
}

widget.onToolResult(show);

button.addEventListener("click", async () => {
  button.disabled = true;
  try {
    show(await widget.callTool("get-time", {}));
  } catch (err) {
    timeEl.textContent = `[error: ${(err as Error).message}]`;
  } finally {
    button.disabled = false;
  }
});

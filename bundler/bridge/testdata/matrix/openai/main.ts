// Written only against ChatGPT's window.openai, the way Apps SDK widgets are:
// it re-renders on every openai:set_globals and mirrors what it shows into
// widgetState from inside its render.
import "../firstrender";
import "../matrix.css";
const oa = (window as any).openai;
const $ = (id: string) => document.getElementById(id)!;
const stats = { renders: 0, events: 0, heightCalls: 0 };
$("first").textContent = JSON.stringify(oa.widgetState ?? null);
function render() {
  stats.renders++;
  $("input").textContent = JSON.stringify(oa.toolInput ?? null);
  $("output").textContent = JSON.stringify(oa.toolOutput ?? null);
  $("theme").textContent = oa.theme ?? "";
  $("state").textContent = JSON.stringify(oa.widgetState ?? null);
  if (oa.toolOutput) void oa.setWidgetState({ ...oa.widgetState, seen: oa.toolOutput.temp });
  if (oa.notifyIntrinsicHeight) (stats.heightCalls++, oa.notifyIntrinsicHeight(document.documentElement.scrollHeight));
}
window.addEventListener("openai:set_globals", () => (stats.events++, render()));
render();
(window as any).t = {
  call: () => oa.callTool("add", { a: 1 }),
  // Like OpenAI's useWidgetState: set it, and show it without waiting for an echo.
  setState: (s: object) => (oa.setWidgetState({ ...oa.widgetState, ...s }), render()),
  stats: () => stats,
};

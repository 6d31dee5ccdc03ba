// Test widget written only against ChatGPT's window.openai API (no widgetd
// import of its own): on MCP Apps hosts it runs through the bridge polyfill.
import "../widget.css";
const oa = (window as any).openai;
const out = document.getElementById("app")!;
const render = () => {
  out.textContent = JSON.stringify(oa.toolOutput);
  out.dataset.theme = oa.theme ?? "";
  out.dataset.state = JSON.stringify(oa.widgetState);
};
render();
window.addEventListener("openai:set_globals", render);
(window as any).t = { oa };

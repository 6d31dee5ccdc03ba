// Renders static content and never touches the bridge or window.openai.
import "../matrix.css";
document.getElementById("output")!.textContent = "static content";
(window as any).t = { stats: () => ({}) };

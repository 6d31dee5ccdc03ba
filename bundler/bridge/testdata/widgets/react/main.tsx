// Test widget using the widgetd/react hooks; a script entry, so it renders
// into the default shell's #root.
import "../widget.css";
import { createElement as h, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { useCallTool, useDisplayMode, useTheme, useToolInput, useToolOutput, useViewTool, useWidgetState } from "widgetd/react";

function App() {
  const input = useToolInput();
  const out = useToolOutput<{ temp: number }>();
  const theme = useTheme();
  const [mode] = useDisplayMode();
  const [count, setCount] = useWidgetState(0);
  const add = useCallTool("add");
  useViewTool("read-count", { description: "The counter's value" }, () => ({ content: [{ type: "text", text: String(count) }] }));
  (window as any).t = { setCount, call: add.call };
  return h("div", null,
    h("pre", { id: "input" }, JSON.stringify(input ?? null)),
    h("pre", { id: "output" }, JSON.stringify(out ?? null)),
    h("div", { id: "theme" }, theme ?? ""),
    h("div", { id: "mode" }, mode ?? ""),
    h("div", { id: "count" }, String(count)),
    h("div", { id: "call" }, add.loading ? "loading" : add.error ? "error" : JSON.stringify(add.data?.structuredContent ?? null)),
  );
}
createRoot(document.getElementById("root")!).render(h(StrictMode, null, h(App)));

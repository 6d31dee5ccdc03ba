// An Apps SDK-style React widget: every window.openai global read through
// useSyncExternalStore and openai:set_globals, as OpenAI's useOpenAiGlobal
// does, under StrictMode. Renders the default shell's #root.
import "../firstrender";
import "../matrix.css";
import { createElement as h, StrictMode, useState, useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";

const keys = ["toolInput", "toolOutput", "toolResponseMetadata", "widgetState", "theme", "displayMode", "maxHeight", "safeArea", "view", "userAgent", "locale"] as const;
const stats = { renders: 0 };
function useOpenAiGlobal(key: (typeof keys)[number]): any {
  return useSyncExternalStore(
    (onChange) => {
      const handler = (e: Event) => {
        if ((e as CustomEvent).detail?.globals?.[key] !== undefined) onChange();
      };
      window.addEventListener("openai:set_globals", handler, { passive: true });
      return () => window.removeEventListener("openai:set_globals", handler);
    },
    () => (window as any).openai?.[key] ?? null,
  );
}
const first = JSON.stringify((window as any).openai?.widgetState ?? null);
function Widget() {
  const g = Object.fromEntries(keys.map((k) => [k, useOpenAiGlobal(k)]));
  const [, bump] = useState(0);
  t.bump = bump;
  stats.renders++;
  return h("main", null,
    h("pre", { id: "input" }, g.toolInput ? JSON.stringify(g.toolInput) : "waiting"),
    h("pre", { id: "output" }, g.toolOutput ? JSON.stringify(g.toolOutput) : "waiting"),
    h("pre", { id: "theme" }, g.theme ?? ""),
    h("pre", { id: "first" }, first),
    h("pre", { id: "state" }, JSON.stringify(g.widgetState)),
    h("pre", { id: "globals" }, keys.filter((k) => g[k] != null).join(",")),
  );
}
const t = ((window as any).t = {
  bump: (_: (n: number) => number) => {},
  call: () => (window as any).openai.callTool("add", { a: 1 }),
  // Like OpenAI's useWidgetState: set it, and re-render without waiting for an echo.
  setState: (s: object) => ((window as any).openai.setWidgetState({ ...(window as any).openai.widgetState, ...s }), t.bump((n) => n + 1)),
  stats: () => stats,
});
createRoot(document.getElementById("root")!).render(h(StrictMode, null, h(Widget)));

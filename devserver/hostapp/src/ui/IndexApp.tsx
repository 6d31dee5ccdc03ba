// IndexApp: the index page — every built widget as a card with its
// fixtures, each a link to its preview.
import { useEffect } from "preact/hooks";
import type { PageConfig } from "../types";
import { buildStore } from "../events";
import { useStore } from "./useStore";
import { TopBar } from "./TopBar";
import { WidgetList } from "./WidgetList";
import { Overlay } from "./Overlay";

/** IndexApp renders the index page. */
export function IndexApp({ cfg }: { cfg: PageConfig }) {
  const { build } = useStore(buildStore);
  useEffect(() => {
    const dark = matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.dataset.theme = dark ? "dark" : "light";
  }, []);
  const widgets = build?.widgets || [];
  return (
    <div class="app app-index">
      <TopBar cfg={cfg} />
      <main class="index">
        <div class="index-head">
          <h1>Widgets</h1>
          <p class="muted">
            {build ? `${widgets.length} built` : "Building…"} · open one to preview it in ChatGPT, Claude or a generic MCP Apps host.
          </p>
        </div>
        {build ? <WidgetList cfg={cfg} widgets={widgets} cards /> : <p class="empty">Building…</p>}
      </main>
      <Overlay recover="Fix the file and save; this page recovers by itself." />
    </div>
  );
}

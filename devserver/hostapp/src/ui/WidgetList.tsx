// WidgetList: every built widget with its fixtures, each a link to its
// preview; the sidebar of the preview page and the body of the index page.
import type { PageConfig, WidgetInfo } from "../types";

/** previewHref is the preview URL of a widget, on a fixture when named. */
export function previewHref(cfg: PageConfig, widget: string, fixture?: string): string {
  const href = `${cfg.base}/preview/${encodeURIComponent(widget)}`;
  return fixture === undefined ? href : `${href}?fixture=${encodeURIComponent(fixture)}`;
}

/** WidgetListProps: current marks the widget (and fixture) being previewed. */
export interface WidgetListProps {
  cfg: PageConfig;
  widgets: WidgetInfo[];
  current?: string;
  currentFixture?: string;
  cards?: boolean;
}

/** WidgetList renders the list (class widget-list; fixtures under .fixtures). */
export function WidgetList({ cfg, widgets, current, currentFixture, cards }: WidgetListProps) {
  if (widgets.length === 0) return <p class="empty">No widgets built yet.</p>;
  return (
    <ul id="widgets" class={"widget-list" + (cards ? " cards" : "")}>
      {widgets.map((w) => (
        <li key={w.name} class={"widget-item" + (w.name === current ? " is-current" : "")}>
          <a class="widget-link" href={previewHref(cfg, w.name)} aria-current={w.name === current ? "page" : undefined}>
            <span class="widget-icon" aria-hidden="true">
              {w.name.slice(0, 1).toUpperCase()}
            </span>
            <span class="widget-names">
              <span class="widget-name">{w.name}</span>
              <span class="widget-title">{w.title || w.uri}</span>
            </span>
          </a>
          {cards ? <code class="widget-uri">{w.uri}</code> : null}
          {(w.fixtures?.length || w.fixtureError) ? (
            <div class="fixtures">
              {(w.fixtures || []).map((f) => (
                <a key={f.name} class={"fixture-link" + (w.name === current && f.name === currentFixture ? " is-current" : "")} href={previewHref(cfg, w.name, f.name)} title={f.file}>
                  {f.name}
                </a>
              ))}
              {w.fixtureError ? <span class="bad small">{w.fixtureError}</span> : null}
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

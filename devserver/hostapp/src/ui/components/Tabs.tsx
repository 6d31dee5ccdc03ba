// Tabs: a tab list whose panels all stay in the document (inactive ones
// hidden), so every panel keeps its state and its element ids.
import type { ComponentChildren } from "preact";

/** Tab is one tab: its id, label, an optional badge (a count) and its panel. */
export interface Tab {
  id: string;
  label: string;
  badge?: number;
  panel: ComponentChildren;
}

/** TabsProps: active is the shown tab's id. */
export interface TabsProps {
  tabs: Tab[];
  active: string;
  onSelect: (id: string) => void;
  label: string;
}

/** Tabs renders the tab bar (ids tab-<id>) and every panel (ids panel-<id>). */
export function Tabs({ tabs, active, onSelect, label }: TabsProps) {
  return (
    <div class="tabs">
      <div class="tab-list" role="tablist" aria-label={label}>
        {tabs.map((t) => (
          <button key={t.id} id={"tab-" + t.id} type="button" role="tab" aria-selected={t.id === active} aria-controls={"panel-" + t.id} class={"tab" + (t.id === active ? " is-active" : "")} onClick={() => onSelect(t.id)}>
            {t.label}
            {t.badge ? <span class="badge">{t.badge}</span> : null}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div key={t.id} id={"panel-" + t.id} role="tabpanel" aria-labelledby={"tab-" + t.id} class="tab-panel" hidden={t.id !== active}>
          {t.panel}
        </div>
      ))}
    </div>
  );
}

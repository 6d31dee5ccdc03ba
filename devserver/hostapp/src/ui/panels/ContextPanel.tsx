// ContextPanel: every host-context field the widget is told (mcp-apps.md
// §3.4; window.openai's equivalents on ChatGPT): display mode, locale, time
// zone, max height, platform, touch/hover and safe-area insets.
import type { PreviewController } from "../../preview/controller";
import type { Insets } from "../../types";
import { hostProfile } from "../../hosts";
import { useStore } from "../useStore";
import { Panel } from "../components/Panel";
import { Select } from "../components/Select";
import { NumberField, TextField } from "../components/Field";
import { Toggle } from "../components/Toggle";

const sides: (keyof Insets)[] = ["top", "right", "bottom", "left"];

/** ContextPanel renders the host-context controls; changes reach the running widget. */
export function ContextPanel({ ctl }: { ctl: PreviewController }) {
  const s = useStore(ctl.settings);
  const modes = hostProfile(s.host, ctl.cfg.version).displayModes;
  const set = ctl.setContext.bind(ctl);
  return (
    <div class="stack">
      <Panel title="Display">
        <div class="grid-2">
          <Select id="display-mode" label="Display mode" value={s.mode} onChange={(v) => set({ mode: v as typeof s.mode })} options={["inline", "pip", "fullscreen"].map((m) => ({ value: m, label: m + (modes.includes(m as any) ? "" : " (not offered by this host)") }))} />
          <NumberField id="max-height" label="Max height (px)" value={s.maxHeight} min={50} max={6000} step={10} onChange={(v) => set({ maxHeight: Math.max(50, v || 600) })} />
          <TextField id="locale" label="Locale" value={s.locale} onChange={(v) => set({ locale: v })} placeholder="en-US" />
          <TextField id="time-zone" label="Time zone" value={s.timeZone} onChange={(v) => set({ timeZone: v })} placeholder="Europe/Oslo" />
        </div>
      </Panel>
      <Panel title="Device" hint="Set by the device preset; change any field to try a combination.">
        <div class="grid-2">
          <Select id="platform" label="Platform" value={s.platform} onChange={(v) => set({ platform: v as typeof s.platform })} options={["web", "desktop", "mobile"].map((p) => ({ value: p, label: p }))} />
          <div class="toggles">
            <Toggle id="touch" checked={s.touch} onChange={(v) => set({ touch: v })}>
              Touch
            </Toggle>
            <Toggle id="hover" checked={s.hover} onChange={(v) => set({ hover: v })}>
              Hover
            </Toggle>
          </div>
        </div>
        <fieldset class="insets">
          <legend class="field-label">Safe-area insets (px)</legend>
          {sides.map((side) => (
            <NumberField key={side} id={"inset-" + side} label={side} value={s.insets[side]} min={0} max={200} onChange={(v) => set({ insets: { ...s.insets, [side]: Math.max(0, v || 0) } })} />
          ))}
        </fieldset>
      </Panel>
    </div>
  );
}

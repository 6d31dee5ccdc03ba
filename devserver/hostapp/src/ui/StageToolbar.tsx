// StageToolbar: above the conversation — the fixture, reload, and the
// display mode buttons (inline, picture-in-picture, fullscreen).
import type { PreviewController } from "../preview/controller";
import { hostProfile } from "../hosts";
import { useStore } from "./useStore";
import { Button } from "./components/Button";
import { Select } from "./components/Select";

const modeButtons = [
  { mode: "inline", label: "Inline" },
  { mode: "pip", label: "PiP" },
  { mode: "fullscreen", label: "Fullscreen" },
] as const;

/** StageToolbar renders #fixture, #reload and #mode-<mode> buttons. */
export function StageToolbar({ ctl }: { ctl: PreviewController }) {
  const s = useStore(ctl.settings);
  const st = useStore(ctl.state);
  const offered = hostProfile(s.host, ctl.cfg.version).displayModes;
  const fixtures = [{ value: "", label: st.fixtures.length ? "(none)" : "(no fixtures)" }, ...st.fixtures.map((f) => ({ value: f.name, label: f.name, title: f.file }))];
  return (
    <div class="stage-toolbar">
      <Select id="fixture" label="Fixture" value={st.fixtureName} options={fixtures} onChange={(v) => ctl.selectFixture(v)} />
      {st.source.kind === "server" ? (
        <Button id="use-local" small onClick={() => ctl.useLocalSource()}>
          Use the local build
        </Button>
      ) : null}
      <div class="segmented" role="group" aria-label="Display mode">
        {modeButtons.map((b) => (
          <button key={b.mode} id={"mode-" + b.mode} type="button" class={"seg" + (s.mode === b.mode ? " is-active" : "")} aria-pressed={s.mode === b.mode} disabled={!offered.includes(b.mode)} title={offered.includes(b.mode) ? "" : "this host offers no " + b.mode} onClick={() => ctl.setMode(b.mode)}>
            {b.label}
          </button>
        ))}
      </div>
      <Button id="reload" small onClick={() => ctl.mount()} title="Reload the widget">
        <span aria-hidden="true">↻</span>
        <span class="btn-text">Reload</span>
      </Button>
    </div>
  );
}

// PreviewApp: the preview page — top bar, widget sidebar (a drawer on
// narrow screens), the conversation with the widget, and the inspector.
import { useEffect, useState } from "preact/hooks";
import type { PreviewController } from "../preview/controller";
import { buildStore } from "../events";
import { useStore } from "./useStore";
import { TopBar } from "./TopBar";
import { Select } from "./components/Select";
import { Toggle } from "./components/Toggle";
import { WidgetList } from "./WidgetList";
import { Conversation } from "./Conversation";
import { StageToolbar } from "./StageToolbar";
import { Inspector } from "./Inspector";
import { Overlay } from "./Overlay";
import { hostOptions } from "./hostlook";

/** noCSPNote says what "no CSP" hides (the tests look for "blocked after submission"). */
export const noCSPNote = "No CSP, as ChatGPT's developer mode: this hides every fetch, image, font or frame from an origin widget.json does not declare — blocked after submission and on every other host.";

// useThemeOnPage makes the whole page follow the host theme.
function useThemeOnPage(theme: string) {
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
}

/** PreviewApp renders the preview page for one widget. */
export function PreviewApp({ ctl }: { ctl: PreviewController }) {
  const s = useStore(ctl.settings);
  const st = useStore(ctl.state);
  const { build } = useStore(buildStore);
  const [drawer, setDrawer] = useState(false);
  useThemeOnPage(s.theme);
  useEffect(() => {
    // The way back from fullscreen and pip, as hosts give one: Escape
    // returns to inline. This is Escape on the page; the frame forwards
    // Escape the widget did not take (reporterScript, devserver/inject.go).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      setDrawer(false);
      ctl.leaveMode();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [ctl]);
  return (
    <div class={"app app-preview" + (drawer ? " drawer-open" : "") + " mode-is-" + s.mode}>
      <TopBar cfg={ctl.cfg} crumb={ctl.name} onMenu={() => setDrawer(!drawer)} menuOpen={drawer}>
        <Select id="host" label="Host" value={s.host} options={hostOptions} onChange={(v) => ctl.selectHost(v)} />
        <Select id="theme" label="Theme" value={s.theme} options={[{ value: "light", label: "Light" }, { value: "dark", label: "Dark" }]} onChange={(v) => ctl.setContext({ theme: v as typeof s.theme })} />
        <Select id="device" label="Device" value={s.deviceId} options={ctl.devices.map((d) => ({ value: d.id, label: d.label }))} onChange={(v) => ctl.selectDevice(v)} />
        <Toggle id="no-csp" checked={s.noCSP} onChange={(v) => ctl.setNoCSP(v)} title="ChatGPT's developer mode applies no CSP: a fetch, image or font from an origin widget.json does not declare works there and fails after submission, and in Claude and every other host.">
          No CSP
        </Toggle>
      </TopBar>
      <nav id="sidebar" class="sidebar" aria-label="Widgets">
        <h2 class="sidebar-title">Widgets</h2>
        <WidgetList cfg={ctl.cfg} widgets={build?.widgets || []} current={ctl.name} currentFixture={st.fixtureName} />
      </nav>
      <div class="scrim" onClick={() => setDrawer(false)} hidden={!drawer} />
      <main class="main">
        <StageToolbar ctl={ctl} />
        <p id="no-csp-note" class="banner warn" hidden={!s.noCSP}>
          {noCSPNote}
        </p>
        <div class="screen-area">
          <Conversation ctl={ctl} />
        </div>
      </main>
      <Inspector ctl={ctl} />
      <Overlay recover="Fix the file and save; the preview recovers by itself." />
    </div>
  );
}

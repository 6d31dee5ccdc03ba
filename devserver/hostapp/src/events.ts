// The dev server's build events (SSE): every page follows them for the
// widget list, the status line and the build-failed overlay.
import type { BuildEvent, PageConfig } from "./types";
import { dev } from "./devstate";
import { Store } from "./store";

/** BuildState is the last build and whether the event stream is up. */
export interface BuildState {
  build: BuildEvent | null;
  connected: boolean;
}

/** buildStore holds the last build event for the UI. */
export const buildStore = new Store<BuildState>({ build: null, connected: true });

/** connectEvents follows /_widgetd/events, updating buildStore and calling onBuild. */
export function connectEvents(cfg: PageConfig, onBuild: (ev: BuildEvent) => void): EventSource {
  const es = new EventSource(cfg.base + "/_widgetd/events");
  es.addEventListener("build", (e) => {
    let ev: BuildEvent;
    try {
      ev = JSON.parse((e as MessageEvent).data);
    } catch {
      return;
    }
    dev.build = ev;
    buildStore.set({ build: ev, connected: true });
    onBuild(ev);
  });
  es.onerror = () => buildStore.set({ connected: false });
  return es;
}

/** statusText is the status line for a build state. */
export function statusText(st: BuildState): { text: string; bad: boolean } {
  if (!st.connected) return { text: "dev server unreachable; retrying…", bad: true };
  const ev = st.build;
  if (!ev) return { text: "building…", bad: false };
  return ev.ok ? { text: `build #${ev.seq} ok in ${Math.round(ev.durationMs)} ms`, bad: false } : { text: `build #${ev.seq} failed`, bad: true };
}

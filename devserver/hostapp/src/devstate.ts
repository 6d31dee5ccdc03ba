// window.widgetdDev: the preview's state for debugging, the browser tests
// and `widgetd test` (widgettest reads log, calls, loaded…), and the
// message log the UI's log panel shows.
import type { BuildEvent } from "./types";
import { Store } from "./store";

/** LogEntry is one logged message: dir "in" is widget → host, "out" host → widget. */
export interface LogEntry {
  t: number;
  dir: "in" | "out" | "host" | "err";
  kind: string;
  data: unknown;
  /** Milliseconds since the request this entry answers (same JSON-RPC id). */
  latency?: number;
}

/** ProbeResult is what the sandbox document's reporter script answers to a probe. */
export interface ProbeResult {
  text: string;
  found: boolean[];
  ready: boolean;
  height: number;
  /** The document's viewport (innerWidth, innerHeight): the frame's size as the widget's process last saw it. */
  viewportWidth: number;
  viewportHeight: number;
  /** The document's look: root style and class, body colours and font (a host's style variables change it). */
  look: string;
}

/** Violation is a CSP violation as the server's csp-report answers it (with advice). */
export interface Violation {
  directive: string;
  blockedURI: string;
  message?: string;
  origin?: string;
  field?: string;
  configFile?: string;
  source?: { file: string; line: number; column: number; text?: string };
}

/** dev is window.widgetdDev (names kept: widgetd test and the tests read them). */
export const dev = ((window as any).widgetdDev = {
  log: [] as LogEntry[],
  violations: [] as Violation[],
  // Reports (CSP violations, uncaught errors) still being traced to their
  // source line by the server; widgetd test waits for none.
  pendingReports: 0,
  build: null as BuildEvent | null,
  mounts: 0,
  initialized: false,
  host: "mcp-apps",
  mountedHash: "",
  // The fixture rendered, the tools the widget called, and whether the
  // widget document loaded (widgetd test reads these).
  fixture: "",
  calls: [] as { name: string; arguments: unknown }[],
  loaded: false,
  probe: (_selectors: string[], _freeze?: boolean): Promise<ProbeResult> => Promise.reject(new Error("no widget mounted")),
});

/** logStore tells the log and issues panels that dev.log or dev.violations changed. */
export const logStore = new Store({ version: 0 });

// Requests in flight by direction and JSON-RPC id, to time their answers.
const pending = new Map<string, number>();

function rpcTiming(dir: LogEntry["dir"], data: any, t: number): number | undefined {
  if (!data || typeof data !== "object" || data.id === undefined) return undefined;
  if (typeof data.method === "string") {
    pending.set(dir + ":" + data.id, t);
    return undefined;
  }
  const other = (dir === "in" ? "out" : "in") + ":" + data.id;
  const start = pending.get(other);
  if (start === undefined) return undefined;
  pending.delete(other);
  return t - start;
}

/** logEntry records a message (a JSON copy of data) and tells the panels. */
export function logEntry(dir: LogEntry["dir"], kind: string, data?: unknown) {
  let copy: unknown = null;
  try {
    copy = data === undefined ? null : JSON.parse(JSON.stringify(data));
  } catch {
    copy = String(data);
  }
  const t = Date.now();
  const entry: LogEntry = { t, dir, kind, data: copy };
  const latency = rpcTiming(dir, copy, t);
  if (latency !== undefined) entry.latency = latency;
  dev.log.push(entry);
  logStore.set({ version: logStore.value.version + 1 });
}

/** clearLog empties the message log. */
export function clearLog() {
  dev.log.length = 0;
  pending.clear();
  logStore.set({ version: logStore.value.version + 1 });
}

/** describe names a JSON-RPC message for the log: method and id, or result/error and id. */
export function describe(m: any): string {
  if (m && typeof m.method === "string") return m.id !== undefined ? `${m.method} #${m.id}` : m.method;
  if (m && m.id !== undefined) return m.error ? `error #${m.id}` : `result #${m.id}`;
  return "message";
}

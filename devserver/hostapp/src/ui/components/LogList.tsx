// LogList: the message log — time, direction, kind, the answer's latency,
// and the message's JSON, collapsed to one line until opened.
import type { LogEntry } from "../../devstate";

/** directionLabel says who sent an entry, as the log shows it. */
export function directionLabel(dir: LogEntry["dir"]): string {
  switch (dir) {
    case "in":
      return "widget → host";
    case "out":
      return "host → widget";
    case "err":
      return "error";
  }
  return "host";
}

function clock(t: number): string {
  return new Date(t).toISOString().slice(11, 23);
}

function oneLine(data: unknown): string {
  const s = JSON.stringify(data) ?? "";
  return s.length > 160 ? s.slice(0, 160) + "…" : s;
}

/** LogListProps: entries are shown in order, the newest last. */
export interface LogListProps {
  entries: LogEntry[];
  /** Time of the first entry, for the +ms column. */
  start: number;
}

/** LogList renders <ol id="log"> with one collapsible row per entry. */
export function LogList({ entries, start }: LogListProps) {
  return (
    <ol id="log" class="log">
      {entries.map((e, i) => (
        <li key={i} class={"log-row " + e.dir}>
          <details>
            <summary>
              <span class="log-time" title={clock(e.t)}>
                +{Math.max(0, e.t - start)} ms
              </span>
              <span class={"log-dir dir-" + e.dir}>{directionLabel(e.dir)}</span>
              <span class="log-kind">{e.kind}</span>
              {e.latency !== undefined ? <span class="log-latency">{e.latency} ms</span> : null}
              <span class="log-preview">{oneLine(e.data)}</span>
            </summary>
            <pre class="log-json">{JSON.stringify(e.data, null, 2)}</pre>
          </details>
        </li>
      ))}
    </ol>
  );
}

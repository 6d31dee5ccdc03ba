// LogPanel: the message log with direction filters and a text filter.
import { useState } from "preact/hooks";
import { dev, logStore, clearLog, type LogEntry } from "../../devstate";
import { useStore } from "../useStore";
import { Button } from "../components/Button";
import { LogList } from "../components/LogList";

const directions: { id: LogEntry["dir"] | "all"; label: string }[] = [
  { id: "all", label: "All" },
  { id: "in", label: "Widget → host" },
  { id: "out", label: "Host → widget" },
  { id: "host", label: "Host" },
  { id: "err", label: "Errors" },
];

/** shownEntries applies the direction and text filters, keeping the last 500. */
export function shownEntries(entries: LogEntry[], dir: string, text: string): LogEntry[] {
  const q = text.trim().toLowerCase();
  const out = entries.filter((e) => (dir === "all" || e.dir === dir) && (!q || e.kind.toLowerCase().includes(q) || JSON.stringify(e.data).toLowerCase().includes(q)));
  return out.slice(-500);
}

/** LogPanel renders the filters, the Clear button (#clear-log) and the log. */
export function LogPanel() {
  useStore(logStore);
  const [dir, setDir] = useState<string>("all");
  const [text, setText] = useState("");
  const entries = shownEntries(dev.log, dir, text);
  return (
    <div class="log-panel">
      <div class="log-filters" role="group" aria-label="Filter messages">
        <div class="chips">
          {directions.map((d) => (
            <button key={d.id} type="button" id={"log-filter-" + d.id} class={"chip" + (dir === d.id ? " is-active" : "")} aria-pressed={dir === d.id} onClick={() => setDir(d.id)}>
              {d.label}
            </button>
          ))}
        </div>
        <input id="log-search" type="search" placeholder="Filter by method or content" value={text} onInput={(e) => setText(e.currentTarget.value)} aria-label="Filter by method or content" />
        <Button id="clear-log" small onClick={clearLog}>
          Clear
        </Button>
      </div>
      <p class="muted small">
        {entries.length} of {dev.log.length} messages · click a row for its JSON
      </p>
      <LogList entries={entries} start={dev.log[0]?.t ?? 0} />
    </div>
  );
}

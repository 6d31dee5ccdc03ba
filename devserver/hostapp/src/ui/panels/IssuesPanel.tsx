// IssuesPanel: CSP violations (with the widget.json field that allows the
// origin) and uncaught errors, each at its source position when the server
// traced it.
import { dev, logStore } from "../../devstate";
import { useStore } from "../useStore";
import { Panel } from "../components/Panel";

type Source = { file: string; line: number; column: number; text?: string };

function SourceLine({ source }: { source?: Source }) {
  if (!source) return null;
  return <code class="at">{`${source.file}:${source.line}:${source.column}  ${String(source.text || "").trim()}`}</code>;
}

/** issueCount is the number of violations and uncaught errors, for the tab badge. */
export function issueCount(): number {
  return dev.violations.length + dev.log.filter((e) => e.dir === "err" && e.kind === "uncaught").length;
}

/** IssuesPanel renders #violations and the uncaught errors. */
export function IssuesPanel() {
  useStore(logStore);
  const errors = dev.log.filter((e) => e.dir === "err" && e.kind === "uncaught").map((e) => e.data as any);
  return (
    <div class="stack">
      <Panel title="CSP violations" hint={dev.violations.length ? undefined : "None so far: every fetch, image, font and frame the widget used is declared in widget.json."}>
        <ul id="violations" class="issues">
          {dev.violations.map((v, i) => (
            <li key={i} class="issue violation">
              <strong>{v.blockedURI}</strong>
              <div>{v.message}</div>
              <SourceLine source={v.source} />
              {v.field ? <code class="fix">{`${v.configFile}: ${v.field} += "${v.origin}"`}</code> : null}
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="Uncaught errors" hint={errors.length ? undefined : "None so far."}>
        <ul id="errors" class="issues">
          {errors.map((e, i) => (
            <li key={i} class="issue error">
              <strong>{e.message}</strong>
              <SourceLine source={e.source} />
              {!e.source && e.file ? <code class="at">{`${e.file}:${e.line}:${e.column}`}</code> : null}
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}

// ResourcePanel: the widget resource's _meta and the CSP header the sandbox
// origin serves it with.
import type { PreviewController } from "../../preview/controller";
import { useStore } from "../useStore";
import { Panel } from "../components/Panel";

/** ResourcePanel renders #resource-meta and #csp. */
export function ResourcePanel({ ctl }: { ctl: PreviewController }) {
  const st = useStore(ctl.state);
  const w = st.widget;
  return (
    <div class="stack">
      <Panel title="Resource" hint={w ? <code>{w.uri}</code> : "No widget built."}>
        <pre id="resource-meta" class="code-block">{w ? JSON.stringify(w.meta, null, 2) : ""}</pre>
      </Panel>
      <Panel title="Content-Security-Policy" hint="The header the sandbox origin serves the widget with (the spec's CSP from widget.json).">
        <pre id="csp" class="code-block">{w?.csp ?? ""}</pre>
      </Panel>
    </div>
  );
}

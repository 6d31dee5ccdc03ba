// ResourcePanel: the shown widget resource's _meta and the CSP header the
// sandbox origin serves it with: the local build's, or in source=server
// mode the --mcp server's resource (what a host would build from it).
import type { PreviewController } from "../../preview/controller";
import { useStore } from "../useStore";
import { Panel } from "../components/Panel";

/** ResourcePanel renders #resource-meta and #csp. */
export function ResourcePanel({ ctl }: { ctl: PreviewController }) {
  const st = useStore(ctl.state);
  const w = ctl.shown();
  const server = st.source.kind === "server";
  const failed = server && st.server?.uri === w?.uri ? st.server?.error : undefined;
  return (
    <div class="stack">
      <Panel title={server ? "Resource (from the server)" : "Resource"} hint={w ? <code id="resource-uri">{w.uri}</code> : "No widget built."}>
        <pre id="resource-meta" class={"code-block" + (failed ? " bad" : "")}>{failed || (w ? JSON.stringify(w.meta, null, 2) : "")}</pre>
      </Panel>
      <Panel title="Content-Security-Policy" hint={server ? "The header the sandbox origin serves the server's widget with, built from its resource _meta as a host does." : "The header the sandbox origin serves the widget with (the spec's CSP from widget.json)."}>
        <pre id="csp" class="code-block">{w?.csp ?? ""}</pre>
      </Panel>
    </div>
  );
}

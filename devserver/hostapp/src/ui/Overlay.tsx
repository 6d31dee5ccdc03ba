// Overlay: the build-failed overlay with each error's file:line:col text.
import { buildStore } from "../events";
import { useStore } from "./useStore";

/** Overlay renders #overlay, hidden unless the last build failed with errors. */
export function Overlay({ recover }: { recover: string }) {
  const { build } = useStore(buildStore);
  const errs = build && !build.ok ? (build.diagnostics || []).filter((d) => !d.warning) : [];
  return (
    <div id="overlay" class="overlay" hidden={errs.length === 0} role="alertdialog" aria-labelledby="overlay-title">
      <div class="overlay-box">
        <h2 id="overlay-title">Build failed</h2>
        <pre id="overlay-text">{errs.map((d) => d.text).join("\n\n")}</pre>
        <p class="muted">{recover}</p>
      </div>
    </div>
  );
}

// StatusLine: the last build's outcome and time, or that the server is gone.
import { buildStore, statusText } from "../events";
import { useStore } from "./useStore";

/** StatusLine renders #status. */
export function StatusLine() {
  const st = statusText(useStore(buildStore));
  return (
    <span id="status" class={"status" + (st.bad ? " bad" : "")} role="status">
      <span class="status-dot" aria-hidden="true" />
      {st.text}
    </span>
  );
}

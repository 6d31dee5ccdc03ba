// Test widget for the bridge's protocol cases: exposes the widgetd API and
// widgetd/mcp so the Go test can call each and see what the host received,
// how it failed and how long it took. It declares one display mode beyond
// "inline" (and "modal", which must never reach ui/*).
import widget, { WidgetdError } from "widgetd";
import * as mcp from "widgetd/mcp";

widget.configure({ displayModes: ["fullscreen", "modal"] });

(window as any).t = {
  widget,
  mcp,
  run: async (f: (w: typeof widget, m: typeof mcp) => unknown) => {
    const start = performance.now();
    try {
      return { ok: (await f(widget, mcp)) ?? null, ms: performance.now() - start };
    } catch (e) {
      const x = e as WidgetdError;
      return { err: x.code, feature: x.feature, isWidgetdError: x instanceof WidgetdError, msg: x.message, ms: performance.now() - start };
    }
  },
};

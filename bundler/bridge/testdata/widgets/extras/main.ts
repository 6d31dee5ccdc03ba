// Test widget for the ChatGPT extras module: exposes every wrapper so the Go
// test can call each and see what the host received or how it failed.
import * as chatgpt from "widgetd/chatgpt";
import { WidgetdError } from "widgetd";

(window as any).t = {
  chatgpt,
  run: async (f: (c: typeof chatgpt) => unknown) => {
    try {
      return { ok: (await f(chatgpt)) ?? null };
    } catch (e) {
      const x = e as WidgetdError;
      return { err: x.code, feature: x.feature, isWidgetdError: x instanceof WidgetdError };
    }
  },
};

// Test widget written against the widgetd API only. It renders what the host
// sends and exposes window.t so the Go test can drive actions.
import "../widget.css";
import widget, { WidgetdError } from "widgetd";

const $ = (id: string) => document.getElementById(id)!;
document.getElementById("app")!.innerHTML =
  '<pre id="input"></pre><pre id="output"></pre><pre id="meta"></pre><div id="theme"></div><div id="mode"></div><div id="border">b</div><div id="torn"></div><div id="filler"></div>';
widget.onToolInput((a) => ($("input").textContent = JSON.stringify(a)));
widget.onToolResult((r) => {
  $("output").textContent = JSON.stringify(r.structuredContent);
  $("meta").textContent = JSON.stringify(r._meta ?? null);
});
widget.onHostContextChanged((c) => {
  $("theme").textContent = c.theme ?? "";
  $("mode").textContent = c.displayMode ?? "";
});
widget.onTeardown(() => void ($("torn").textContent = "yes"));

(window as any).t = {
  widget,
  // Inline escaping: the bundler inlines this script in a <script> element.
  tricky: "</script><!--<script>",
  grow: (px: number) => void ($("filler").style.height = px + "px"),
  run: async (f: (w: typeof widget) => unknown) => {
    try {
      return { ok: (await f(widget)) ?? null };
    } catch (e) {
      const x = e as WidgetdError;
      return { err: x.code, feature: x.feature, isWidgetdError: x instanceof WidgetdError, msg: x.message };
    }
  },
};

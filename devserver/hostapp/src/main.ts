// The widgetd dev preview host app: the Preact UI of the index and preview
// pages (ui/), and the controller that renders a widget in a sandboxed
// iframe on the sandbox origin and plays the chosen host to it
// (preview/controller.ts, hosts.ts). It follows the dev server's build
// events (SSE): a widget whose hash changed is reloaded, a failed build
// shows an overlay with file:line:col.
// Bundled by `go generate ./devserver` into ../static/hostapp.js.
import { h, render } from "preact";
import { readConfig } from "./types";
import { connectEvents } from "./events";
import { PreviewController } from "./preview/controller";
import { PreviewApp } from "./ui/PreviewApp";
import { IndexApp } from "./ui/IndexApp";

const cfg = readConfig();
const root = document.getElementById("app")!;
// The server-rendered list (for a page read without scripts) gives way to the app.
root.textContent = "";

if (document.body.dataset.page === "preview" && cfg.widget) {
  const ctl = new PreviewController(cfg, cfg.widget);
  render(h(PreviewApp, { ctl }), root);
  connectEvents(cfg, (ev) => ctl.onBuild(ev));
} else {
  render(h(IndexApp, { cfg }), root);
  connectEvents(cfg, () => {});
}

// The handshake core (bridge level "core", bundler/bridgelevel.go): what a
// widget gets whose code uses neither the widgetd API nor window.openai and
// does no handshake of its own, e.g. a raw "message" listener or a static
// page. A spec host sends a view its tool input and result only after the
// view's ui/initialize, so this does that handshake, sends initialized,
// applies the host's theme, style variables and fonts, reports the
// document's size, and answers ping and ui/resource-teardown. On a
// window.openai-only host the App adapter over window.openai (imported
// first) answers this handshake in the host's place and hands the page's
// "message" listeners the tool input and result from window.openai, as a
// spec host would. Written like index.ts.
import "./appadapterlite";
import { PROTOCOL_VERSION, themeDocument } from "./shared";

type JSONObject = Record<string, any>;

const win = window as any, doc = document;
/** The id of our ui/initialize (a string no widget's own counter makes). */
const INITIALIZE_ID = "widgetd-initialize";
/** window.parent, read at each use: the App adapter may stand in for it. */
const host = () => win.parent;
const post = (message: JSONObject) => host().postMessage({ jsonrpc: "2.0", ...message }, "*");

if (host() !== win) {
  let hostContext: JSONObject = {};
  let applied: string[] = [];
  let lastSize = "";
  let timer: any;
  const theme = (update: JSONObject) => (applied = themeDocument((hostContext = { ...hostContext, ...update }), applied));
  /** Reports the document's size, debounced, once it changed (index.ts measures the same way). */
  const measureSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const root = doc.documentElement, oldHeight = root.style.height;
      root.style.height = "max-content";
      const height = Math.ceil(root.getBoundingClientRect().height), width = Math.ceil(win.innerWidth);
      root.style.height = oldHeight;
      if (width + "x" + height != lastSize) post({ method: "ui/notifications/size-changed", params: { width, height } });
      lastSize = width + "x" + height;
    }, 50);
  };
  win.addEventListener("message", (e: MessageEvent) => {
    const message = e.data;
    if (e.source !== host() || !message || message.jsonrpc !== "2.0") return;
    const { id, method, params } = message;
    if (id == INITIALIZE_ID && message.result) {
      post({ method: "ui/notifications/initialized", params: {} });
      theme(message.result.hostContext || {});
      if (win.ResizeObserver) {
        const observer = new ResizeObserver(measureSoon);
        observer.observe(doc.documentElement);
        doc.body && observer.observe(doc.body);
      }
      measureSoon();
    } else if (method == "ui/notifications/host-context-changed") theme(params || {});
    else if (id !== undefined && (method == "ping" || method == "ui/resource-teardown")) post({ id, result: {} });
  });
  // At load, once every module ran and added its listeners.
  setTimeout(() => post({
    id: INITIALIZE_ID, method: "ui/initialize",
    params: { appInfo: { name: doc.title || "widgetd-widget", version: "1" }, appCapabilities: { availableDisplayModes: ["inline"] }, protocolVersion: PROTOCOL_VERSION },
  }));
}

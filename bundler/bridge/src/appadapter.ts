// widgetd/app-adapter: lets a widget written against the official ext-apps
// App class run on a ChatGPT host that offers window.openai but never answers
// ui/*. widgetd bundles it only into widgets that import the App class (the
// bundler puts an import of it ahead of ext-apps' own module), so it runs
// before the App connects.
//
// On a host with window.openai, in a frame, it gives the page a window.parent
// that forwards what the App posts: to the real host while the host may
// answer ui/*, and, once the bridge's probe shows it does not, to a small
// MCP Apps host emulated over window.openai. Messages from the real host
// reach the App unchanged; elsewhere it does nothing.
import { session, sessionUp, widget } from "./index";

type Obj = Record<string, any>;
type Listener = ((e: Obj) => void) | { handleEvent(e: Obj): void };

const W = window as any;
const O = W.openai;
const P = W.parent;

if (O && P !== W) {
  const listeners = new Set<Listener>();
  const parent = { postMessage: (m: Obj) => fromApp(m) };
  const deliver = (data: Obj) =>
    listeners.forEach((l) => {
      try { (typeof l == "function" ? l : l.handleEvent.bind(l))({ data, source: parent, origin: location.origin }); } catch (e) { console.error(e); }
    });
  let emulate: ((m: Obj) => void) | undefined;
  const early: Obj[] = [];
  function fromApp(m: Obj) {
    if (emulate) return emulate(m);
    early.push(m);
    P.postMessage(m, "*");
  }
  Object.defineProperty(W, "parent", { get: () => parent, configurable: true });
  const add = W.addEventListener, remove = W.removeEventListener;
  W.addEventListener = function (this: any, t: string, l: Listener, ...a: any[]) {
    if (t == "message" && l) listeners.add(l);
    return add.call(this, t, l, ...a);
  };
  W.removeEventListener = function (this: any, t: string, l: Listener, ...a: any[]) {
    if (t == "message") listeners.delete(l);
    return remove.call(this, t, l, ...a);
  };
  // The real host's messages, re-addressed from the page's window.parent.
  add.call(W, "message", (e: MessageEvent) => { if (e.source === P && !emulate) deliver(e.data); });

  // Not widget.ready(): that would start the bridge's handshake at once
  // instead of letting the App's own go first.
  session.then(() => {
    if (sessionUp()) return (early.length = 0); // the host speaks ui/*: keep forwarding
    let initialized = false;
    const notify = (method: string, params: Obj) => initialized && deliver({ jsonrpc: "2.0", method, params });
    const answer = (id: unknown, p: Promise<Obj>) =>
      p.then((result) => deliver({ jsonrpc: "2.0", id, result: result ?? {} }),
        (e) => deliver({ jsonrpc: "2.0", id, error: { code: -32000, message: String(e?.message || e) } }));
    const text = (c: Obj[]) => (c || []).map((b) => b.text || "").join("\n");
    emulate = (m) => {
      const { id, method, params = {} } = m;
      const call = (f: () => any) => answer(id, Promise.resolve().then(f));
      if (method == "ui/initialize") {
        call(() => ({
          protocolVersion: params.protocolVersion || "2026-01-26",
          hostInfo: { name: "chatgpt", version: "window.openai" },
          hostCapabilities: { serverTools: {}, openLinks: {}, message: { text: {} } },
          hostContext: widget.hostContext,
        }));
      } else if (method == "ui/notifications/initialized") {
        initialized = true;
        if (widget.toolInput) notify("ui/notifications/tool-input", { arguments: widget.toolInput });
        if (widget.toolResult) notify("ui/notifications/tool-result", widget.toolResult);
      } else if (method == "tools/call") call(() => O.callTool(params.name, params.arguments || {}));
      else if (method == "ui/message") call(() => O.sendFollowUpMessage({ prompt: text(params.content) }));
      else if (method == "ui/open-link") call(() => (O.openExternal({ href: params.url }), {}));
      else if (method == "ui/request-display-mode") call(() => Promise.resolve(O.requestDisplayMode({ mode: params.mode })).then((r) => ({ mode: r?.mode || params.mode })));
      else if (method == "ui/notifications/size-changed") O.notifyIntrinsicHeight?.(params.height);
      else if (method == "ui/notifications/request-teardown") O.requestClose?.();
      else if (method == "ping") call(() => ({}));
      else if (id !== undefined) deliver({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found: " + method } });
    };
    widget.onToolInput((a) => notify("ui/notifications/tool-input", { arguments: a }));
    widget.onToolResult((r) => notify("ui/notifications/tool-result", r));
    widget.onHostContextChanged((c) => notify("ui/notifications/host-context-changed", c));
    early.splice(0).forEach(emulate);
  });
}

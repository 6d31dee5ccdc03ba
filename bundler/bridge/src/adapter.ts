// The App adapter (widgetd/app-adapter, and the lighter level in
// appadapterlite.ts): lets a widget written against the official ext-apps
// App class (or any code doing the App's handshake itself) run on a ChatGPT
// host that offers window.openai but never answers ui/*. The bundler puts an
// import of it ahead of every module that posts its own ui/initialize (ext-apps'
// App modules, a framework's vendored copy of App, hand-written code; see
// bundler/appadapter.go), so it runs before that code connects, and only
// widgets with such code carry it.
//
// On every host it tells the bridge to let that handshake go first and adopt
// it. On a host with window.openai, in a frame, it also gives the page a
// window.parent that forwards what the App posts to the real host. The App's
// ui/initialize is the probe: when the host has not answered it within
// PROBE_WAIT, the adapter answers in the host's place, from a small MCP Apps
// host emulated over window.openai; an answer that comes later still moves
// the App onto the real host. Messages from the real host reach the App
// unchanged.
//
// Written like index.ts: names for readers (esbuild shortens them), `==`
// where both sides are strings (a written `===` would stay in the output).
import { PROBE_WAIT } from "./shared";

type JSONObject = Record<string, any>;
type Listener = ((event: JSONObject) => void) | { handleEvent(event: JSONObject): void };

/** What the adapter needs of a bridge: the full one (index.ts) or the window.openai stand-in (openaihost.ts). */
export interface AdapterBridge {
  /** Tells the bridge a handshake of the page's own code is coming. */
  expectAppHandshake(): void;
  /** Whether the bridge has a ui/* session of its own. */
  sessionUp(): boolean;
  /** Tells the bridge the host left ui/* unanswered. */
  settleWithoutSession(): void;
  /** The data and events the emulated host serves. */
  widget: {
    readonly hostContext: JSONObject; readonly toolInput: any; readonly toolResult: any;
    updateModelContext(update: JSONObject): Promise<unknown>;
    onToolInput(callback: (value: any) => void): unknown;
    onToolResult(callback: (value: any) => void): unknown;
    onHostContextChanged(callback: (value: any) => void): unknown;
  };
}

/** Installs the adapter over bridge (once per page: the module calling it runs once). */
export function adaptApp({ expectAppHandshake, sessionUp, settleWithoutSession, widget }: AdapterBridge) {
  const win = window as any;
  /** ChatGPT's window.openai (the adapter does nothing without it). */
  const openai = win.openai;
  /** The real host's window, before the adapter replaces window.parent. */
  const hostWindow = win.parent;

  expectAppHandshake();
  if (openai && hostWindow !== win) {
    /** The page's "message" listeners on window: the App's PostMessageTransport among them. */
    const listeners = new Set<Listener>();
    /** The window.parent the page sees: what the App posts to it comes to fromApp. */
    const parent = { postMessage: (message: JSONObject) => fromApp(message) };
    /** Hands data to the page's listeners as a message from its window.parent. */
    const deliver = (data: JSONObject) =>
      listeners.forEach((listener) => {
        try { (typeof listener === "function" ? listener : listener.handleEvent.bind(listener))({ data, source: parent, origin: location.origin }); } catch (e) { console.error(e); }
      });
    /** Answers the App over window.openai while the host has not answered its ui/initialize. */
    let emulate: ((message: JSONObject) => void) | undefined;
    /** What the App posted before the probe settled, replayed to emulate if the host does not answer. */
    const postedBeforeProbe: JSONObject[] = [];
    /** The id of the App's ui/initialize, once posted; the host's answer to it settles the probe. */
    let initializeId: unknown;
    /** Whether the host answered the App's ui/initialize. */
    let answered = false;
    function fromApp(message: JSONObject) {
      if (emulate) return emulate(message);
      postedBeforeProbe.push(message);
      hostWindow.postMessage(message, "*");
      if (message?.method == "ui/initialize" && initializeId === undefined) {
        initializeId = message.id;
        // Decided a task after PROBE_WAIT, so an answer already queued goes first.
        setTimeout(() => setTimeout(() => answered || sessionUp() ? (postedBeforeProbe.length = 0) : startEmulating()), PROBE_WAIT);
      }
    }
    Object.defineProperty(win, "parent", { get: () => parent, configurable: true });
    // Why window.addEventListener and removeEventListener are wrapped: the
    // App's transport listens on window for messages whose source is its
    // window.parent. Once the adapter answers in the host's place, there is no
    // real message event to carry those answers, so the adapter has to know
    // the page's "message" listeners to call them itself (deliver), and no DOM
    // API lists them. The wrappers forward every call unchanged (same this,
    // arguments and return value) and only note "message" listeners. Only
    // widgets with code that posts ui/initialize carry this, and only on a
    // framed window.openai host.
    const originalAddEventListener = win.addEventListener, originalRemoveEventListener = win.removeEventListener;
    win.addEventListener = function (this: any, type: string, listener: Listener, ...rest: any[]) {
      if (type == "message" && listener) listeners.add(listener);
      return originalAddEventListener.call(this, type, listener, ...rest);
    };
    win.removeEventListener = function (this: any, type: string, listener: Listener, ...rest: any[]) {
      if (type == "message") listeners.delete(listener);
      return originalRemoveEventListener.call(this, type, listener, ...rest);
    };
    // The real host's messages, re-addressed from the page's window.parent.
    originalAddEventListener.call(win, "message", (e: MessageEvent) => {
      if (e.source !== hostWindow) return;
      const isAnswer = initializeId !== undefined && e.data?.id === initializeId && e.data.result;
      if (isAnswer && emulate) {
        // A host that answers ui/* after all: the App, already answered by the
        // emulation, now talks to it (it will send the tool data again).
        emulate = undefined;
        hostWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }, "*");
      } else if (!emulate) deliver(e.data);
      answered ||= isAnswer;
    });

    /** Answers the App in the host's place from now on, starting with what it posted so far. */
    function startEmulating() {
      settleWithoutSession();
      let initialized = false;
      const notify = (method: string, params: JSONObject) => emulate && initialized && deliver({ jsonrpc: "2.0", method, params });
      const answer = (id: unknown, pending: Promise<JSONObject>) =>
        pending.then((result) => deliver({ jsonrpc: "2.0", id, result: result ?? {} }),
          (e) => deliver({ jsonrpc: "2.0", id, error: { code: -32000, message: String(e?.message || e) } }));
      const textOf = (content: JSONObject[]) => (content || []).map((block) => block.text || "").join("\n");
      emulate = (message) => {
        const { id, method, params = {} } = message;
        const answerWith = (compute: () => any) => answer(id, Promise.resolve().then(compute));
        if (method == "ui/initialize") {
          answerWith(() => ({
            protocolVersion: params.protocolVersion || "2026-01-26",
            hostInfo: { name: "chatgpt", version: "window.openai" },
            hostCapabilities: { serverTools: {}, openLinks: {}, message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } },
            hostContext: widget.hostContext,
          }));
        } else if (method == "ui/notifications/initialized") {
          initialized = true;
          if (widget.toolInput) notify("ui/notifications/tool-input", { arguments: widget.toolInput });
          if (widget.toolResult) notify("ui/notifications/tool-result", widget.toolResult);
        } else if (method == "tools/call") answerWith(() => openai.callTool(params.name, params.arguments || {}));
        else if (method == "ui/message") answerWith(() => openai.sendFollowUpMessage({ prompt: textOf(params.content) }));
        else if (method == "ui/open-link") answerWith(() => (openai.openExternal({ href: params.url }), {}));
        else if (method == "ui/request-display-mode") answerWith(() => Promise.resolve(openai.requestDisplayMode({ mode: params.mode })).then((granted) => ({ mode: granted?.mode || params.mode })));
        else if (method == "ui/update-model-context") answerWith(() => widget.updateModelContext(params).then(() => ({})));
        else if (method == "ui/notifications/size-changed") openai.notifyIntrinsicHeight?.(params.height);
        else if (method == "ui/notifications/request-teardown") openai.requestClose?.();
        else if (method == "ping") answerWith(() => ({}));
        else if (id !== undefined) deliver({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found: " + method } });
      };
      widget.onToolInput((args) => notify("ui/notifications/tool-input", { arguments: args }));
      widget.onToolResult((result) => notify("ui/notifications/tool-result", result));
      widget.onHostContextChanged((context) => notify("ui/notifications/host-context-changed", context));
      postedBeforeProbe.splice(0).forEach(emulate);
    }
  }
}

// widgetd bridge: one small API over ChatGPT's window.openai and the MCP Apps
// ui/* JSON-RPC protocol. widgetd imports this module ahead of every widget's
// own code. Importing it only installs passive listeners (and the
// window.openai polyfill on MCP Apps hosts); the MCP handshake starts on first
// use of the API or of the polyfill, and is skipped entirely when the page's
// own ext-apps `App` performs it first (the bridge adopts that session). See
// docs/bridge.md for the full story.
import { WidgetdError } from "./errors";

export { WidgetdError };
export type { ErrorCode } from "./errors";

type Obj = Record<string, any>;
type Fn = (v: any) => any;

/** Which host the widget runs in. */
export type Host = "chatgpt" | "mcp-apps" | "standalone";
/** Display modes shared by both protocols. */
export type DisplayMode = "inline" | "fullscreen" | "pip";
/** Features a widget can test with widget.supports(). */
export type Feature =
  | "callTool" | "sendMessage" | "openLink" | "requestDisplayMode" | "requestClose"
  | "updateModelContext" | "state" | "readResource" | "log" | "downloadFile"
  | "uploadFile" | "getFileDownloadUrl" | "requestModal";

const W = window as any;
const D = document;
const O = W.openai;
const P = W.parent;
const VERSION = "2026-01-26";
const host: Host = O ? "chatgpt" : P !== W ? "mcp-apps" : "standalone";
const MCP = host == "mcp-apps";

/** Tunables; change them with widget.configure() before first use. */
export interface Config {
  /** Request timeout in ms (default 30000). */
  timeout: number;
  /** Report the document size to the host (default true). */
  autoResize: boolean;
  /** Debounce of size reports in ms (default 50). */
  resizeDebounce: number;
  /** Apply host theme, style variables and fonts to the document (default true). */
  theming: boolean;
  /** How long to wait for another ext-apps App's handshake before starting our own, in ms (default 300). */
  adoptWait: number;
  /** appInfo sent in ui/initialize. */
  appInfo: { name: string; version: string };
  /** Display modes the widget declares in appCapabilities. */
  displayModes: DisplayMode[];
}
const cfg: Config = {
  timeout: 30000, autoResize: true, resizeDebounce: 50, theming: true, adoptWait: 300,
  appInfo: { name: D.title || "widgetd-widget", version: "1" },
  displayModes: ["inline", "fullscreen", "pip"],
};

// ---- state and events -------------------------------------------------------
let input: Obj | undefined;
let result: Obj | undefined;
let ctx: Obj = {};
let caps: Obj = {};
let hostInfo: { name: string; version?: string } | undefined;
let state: any = null;
let used = false;
const subs: Record<string, Set<Fn>> = {};
const last: Record<string, any> = {};

function emit(k: string, v: any): any[] {
  last[k] = v;
  const out: any[] = [];
  subs[k]?.forEach((f) => {
    try { out.push(f(v)); } catch (e) { console.error(e); }
  });
  if (MCP && k != "teardown") W.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals: snapshot() } }));
  return out;
}
function on(k: string, cb: Fn, replay?: boolean): () => void {
  use();
  (subs[k] ||= new Set()).add(cb);
  if (replay && k in last) cb(last[k]);
  return () => void subs[k].delete(cb);
}
const err = (c: any, f: string, m: string, d?: unknown) => new WidgetdError(c, f, m, d);
const unsupported = (f: string) => err("unsupported", f, "not supported by this host (" + host + ")");

// ---- theming and size --------------------------------------------------------
let applied: string[] = [];
function theme() {
  if (!cfg.theming || !used) return;
  const s = D.documentElement.style, t = ctx.theme, st = ctx.styles || {}, v = st.variables || {};
  if (t) { D.documentElement.setAttribute("data-theme", t); s.colorScheme = t; }
  applied.forEach((k) => v[k] == null && s.removeProperty(k));
  applied = Object.keys(v).filter((k) => v[k] != null);
  applied.forEach((k) => s.setProperty(k, v[k]));
  const f = st.css?.fonts;
  if (f) {
    let el = D.getElementById("widgetd-fonts");
    if (!el) { el = D.createElement("style"); el.id = "widgetd-fonts"; D.head.append(el); }
    el.textContent = f;
  }
}

let ro: ResizeObserver | undefined;
let timer: any;
let size = "";
function sendSize(width: number | undefined, height: number) {
  if (MCP) post({ method: "ui/notifications/size-changed", params: width ? { width, height } : { height } });
  else O?.notifyIntrinsicHeight?.(height);
}
function measure() {
  const h = D.documentElement, old = h.style.height;
  h.style.height = "max-content";
  const r = Math.ceil(h.getBoundingClientRect().height);
  h.style.height = old;
  const w = Math.ceil(W.innerWidth);
  if (w + "x" + r != size) { size = w + "x" + r; sendSize(w, r); }
}
function resize() {
  if (!cfg.autoResize || ro || adopted || host == "standalone" || !W.ResizeObserver) return;
  ro = new ResizeObserver(() => { clearTimeout(timer); timer = setTimeout(measure, cfg.resizeDebounce); });
  ro.observe(D.documentElement);
  D.body && ro.observe(D.body);
  measure();
}

// ---- persisted state (MCP Apps / standalone polyfill) ------------------------
let mem: Obj = {};
const key = () => "widgetd:state:" + (ctx.toolInfo ? ctx.toolInfo.tool?.name + ":" + ctx.toolInfo.id : location.pathname);
function store(k: string, v?: string) {
  for (const n of ["localStorage", "sessionStorage"]) {
    try {
      const s = W[n];
      if (v === undefined) return s.getItem(k) ?? mem[k];
      s.setItem(k, v);
      return;
    } catch { /* storage blocked: try the next one, then memory */ }
  }
  if (v === undefined) return mem[k];
  mem[k] = v;
}
function loadState() {
  if (host == "chatgpt") return;
  const s = store(key());
  if (s != null) { try { state = JSON.parse(s); } catch { /* corrupt entry: keep null */ } }
}

// ---- MCP Apps JSON-RPC over postMessage -------------------------------------
let seq = 0;
let up = false;
let adopted = false;
let session: Promise<void> | undefined;
let ready: [Fn, Fn] | undefined;
let listeners = 0;
const pending = new Map<string, [Fn, Fn, any, string]>();

function post(m: Obj) { P.postMessage({ jsonrpc: "2.0", ...m }, "*"); }
function request(method: string, params?: Obj, ms = cfg.timeout): Promise<any> {
  const id = "wd" + ++seq;
  return new Promise((res, rej) => {
    const t = setTimeout(() => {
      pending.delete(id);
      rej(err("timeout", method, "no answer from the host within " + ms + " ms"));
    }, ms);
    pending.set(id, [res, rej, t, method]);
    post({ id, method, params });
  });
}
function init(r: Obj) {
  up = true;
  hostInfo = r.hostInfo;
  caps = r.hostCapabilities || {};
  ctx = r.hostContext || {};
  loadState();
  theme();
  resize();
  ready?.[0](undefined);
  emit("hostContext", ctx);
}
function connect(): Promise<void> {
  if (!MCP) return Promise.resolve();
  return (session ||= new Promise<void>((res, rej) => {
    ready = [res, rej];
    if (up) return res();
    // Decide after the current task, so an App connecting in the same task
    // as our first use is seen; then give its handshake adoptWait to land.
    setTimeout(() => setTimeout(() => {
      if (up) return;
      request("ui/initialize", { appInfo: cfg.appInfo, appCapabilities: { availableDisplayModes: cfg.displayModes }, protocolVersion: VERSION })
        .then((r) => { post({ method: "ui/notifications/initialized", params: {} }); init(r); }, rej);
    }, listeners ? cfg.adoptWait : 0));
  }));
}
function use() {
  if (used) return;
  used = true;
  theme();
  if (MCP) connect().catch((e) => console.error(e));
  else resize();
}

if (MCP) {
  // Count other "message" listeners (e.g. the ext-apps PostMessageTransport):
  // when one exists, wait adoptWait for its handshake before starting ours.
  const add = W.addEventListener;
  W.addEventListener("message", (e: MessageEvent) => {
    const m = e.data;
    if (e.source !== P || !m || m.jsonrpc !== "2.0") return;
    const { id, method, params = {} } = m;
    if (method === undefined) {
      const q = pending.get(id);
      if (q) {
        pending.delete(id);
        clearTimeout(q[2]);
        m.error ? q[1](err("host", q[3], m.error.message, m.error)) : q[0](m.result);
      } else if (!up && m.result?.hostCapabilities && m.result.protocolVersion) {
        adopted = true; // another client (ext-apps App) completed the handshake
        init(m.result);
      }
      return;
    }
    if (id !== undefined) {
      const reply = (r: Obj) => !adopted && up && post({ id, ...r });
      if (method == "ui/resource-teardown") Promise.all(emit("teardown", params)).finally(() => reply({ result: {} }));
      else if (method == "ping") reply({ result: {} });
      else reply({ error: { code: -32601, message: "Method not found: " + method } });
      return;
    }
    if (method == "ui/notifications/tool-input") emit("toolInput", (input = params.arguments || {}));
    else if (method == "ui/notifications/tool-input-partial") emit("toolInputPartial", params.arguments || {});
    else if (method == "ui/notifications/tool-result") emit("toolResult", (result = params));
    else if (method == "ui/notifications/tool-cancelled") emit("toolCancelled", params);
    else if (method == "ui/notifications/host-context-changed") {
      ctx = { ...ctx, ...params };
      theme();
      emit("hostContext", ctx);
    }
  });
  W.addEventListener = function (this: any, t: string, ...a: any[]) {
    if (t == "message") listeners++;
    return add.call(this, t, ...a);
  };
}

// ---- ChatGPT (window.openai) -------------------------------------------------
function readOpenai(g: Obj) {
  const dev = g.userAgent?.device?.type;
  return {
    theme: g.theme, displayMode: g.displayMode, locale: g.locale,
    availableDisplayModes: ["inline", "pip", "fullscreen"],
    containerDimensions: g.maxHeight ? { maxHeight: g.maxHeight } : undefined,
    safeAreaInsets: g.safeArea?.insets,
    deviceCapabilities: g.userAgent?.capabilities,
    platform: dev == "mobile" || dev == "tablet" ? "mobile" : dev == "desktop" ? "desktop" : "web",
    view: g.view,
  };
}
function resultOf(g: Obj) {
  const m = g.toolResponseMetadata;
  return g.toolOutput == null && m == null ? undefined
    : m?.mcp_tool_result || m?.call_tool_result || { content: [], structuredContent: g.toolOutput ?? undefined, _meta: m ?? undefined };
}
if (O) {
  input = O.toolInput ?? undefined;
  result = resultOf(O);
  ctx = readOpenai(O);
  state = O.widgetState ?? null;
  hostInfo = { name: "chatgpt" };
  if (input) last.toolInput = input;
  if (result) last.toolResult = result;
  W.addEventListener("openai:set_globals", (e: CustomEvent) => {
    const g = { ...O, ...e.detail?.globals };
    const d = e.detail?.globals || {};
    if ("toolInput" in d && d.toolInput) emit("toolInput", (input = d.toolInput));
    if ("toolOutput" in d || "toolResponseMetadata" in d) emit("toolResult", (result = resultOf(g)));
    if ("widgetState" in d) emit("state", (state = d.widgetState));
    ctx = readOpenai(g);
    theme();
    emit("hostContext", ctx);
  });
}

// ---- standalone preview --------------------------------------------------------
if (host == "standalone") {
  const q = new URLSearchParams(location.search), j = (k: string) => { try { return JSON.parse(q.get(k)!); } catch { return undefined; } };
  console.info("widgetd: no host detected (page opened directly). Preview data: ?toolInput=<json>&toolOutput=<json>&theme=dark");
  input = j("toolInput");
  const out = j("toolOutput");
  if (out) last.toolResult = result = { content: [], structuredContent: out };
  if (input) last.toolInput = input;
  ctx = { theme: q.get("theme") || undefined, displayMode: "inline" };
  loadState();
}

// ---- actions ------------------------------------------------------------------
const CAPS: Obj = {
  callTool: "serverTools", readResource: "serverResources", openLink: "openLinks", sendMessage: "message",
  updateModelContext: "updateModelContext", log: "logging", downloadFile: "downloadFile",
};
const OPENAI: Obj = {
  callTool: "callTool", sendMessage: "sendFollowUpMessage", openLink: "openExternal", requestDisplayMode: "requestDisplayMode",
  requestClose: "requestClose", state: "setWidgetState", uploadFile: "uploadFile", getFileDownloadUrl: "getFileDownloadUrl",
  requestModal: "requestModal",
};

function supports(f: Feature): boolean {
  if (host == "chatgpt") return f == "log" || typeof O[OPENAI[f]] == "function";
  if (MCP) return f in CAPS ? !!caps[CAPS[f]] : f == "requestDisplayMode" || f == "requestClose" || f == "state";
  return f == "log" || f == "state";
}
function act<T>(f: Feature, mcp?: () => Promise<T>, openai?: () => any): Promise<T> {
  use();
  if (host == "standalone") return Promise.reject(err("no-host", f, "no host: the page was opened directly"));
  return connect().then(() => {
    if (!supports(f) || !(MCP ? mcp : openai)) throw unsupported(f);
    return MCP ? mcp!() : openai!();
  });
}
const checked = (f: string) => (r: Obj) => {
  if (r?.isError) throw err("host", f, "the host refused", r);
  return r;
};

function setState(s: any): Promise<void> {
  use();
  state = s;
  emit("state", s);
  if (host == "chatgpt") return act("state", undefined, () => O.setWidgetState(s));
  try { store(key(), JSON.stringify(s)); } catch (e) { return Promise.reject(e); }
  return Promise.resolve();
}

/** The bridge: data, events and actions over whatever host the widget runs in. */
export const widget = {
  /** The detected host. */
  get host(): Host { return host; },
  /** hostInfo from ui/initialize ({name:"chatgpt"} on ChatGPT). */
  get hostInfo() { use(); return hostInfo; },
  /** Host capabilities from ui/initialize (MCP Apps only). */
  get hostCapabilities() { use(); return caps; },
  /** Arguments of the tool call that rendered this widget. */
  get toolInput() { use(); return input; },
  /** structuredContent of the tool result. */
  get toolOutput() { use(); return result?.structuredContent; },
  /** The widget-only _meta of the tool result. */
  get toolMeta() { use(); return result?._meta; },
  /** The full CallToolResult. */
  get toolResult() { use(); return result; },
  /** Host context: theme, displayMode, locale, styles, ... */
  get hostContext() { use(); return ctx; },
  /** Persisted widget state (ChatGPT widgetState, polyfilled elsewhere). */
  get state() { use(); return state; },
  /** Resolves once the host session is established (immediately off MCP Apps). */
  ready: (): Promise<void> => { use(); return connect(); },
  /** Change tunables; call before first use. */
  configure(c: Partial<Config>) { Object.assign(cfg, c); if (c.autoResize === false) { ro?.disconnect(); ro = undefined; } else if (used && up) resize(); },
  /** Whether the current host offers a feature (MCP Apps: accurate after ready()). */
  supports,
  onToolInput: (cb: Fn) => on("toolInput", cb, true),
  onToolInputPartial: (cb: Fn) => on("toolInputPartial", cb),
  onToolResult: (cb: Fn) => on("toolResult", cb, true),
  onToolCancelled: (cb: Fn) => on("toolCancelled", cb),
  onHostContextChanged: (cb: Fn) => on("hostContext", cb),
  onStateChanged: (cb: Fn) => on("state", cb),
  onTeardown: (cb: Fn) => on("teardown", cb),
  callTool: (name: string, args: Obj = {}) =>
    act<any>("callTool", () => request("tools/call", { name, arguments: args }), () => O.callTool(name, args)),
  sendMessage: (text: string | Obj[]) =>
    act("sendMessage", () => request("ui/message", { role: "user", content: typeof text == "string" ? [{ type: "text", text }] : text }).then(checked("sendMessage")),
      () => O.sendFollowUpMessage({ prompt: typeof text == "string" ? text : text.map((c) => c.text || "").join("\n") })),
  openLink: (url: string) => act("openLink", () => request("ui/open-link", { url }).then(checked("openLink")), () => O.openExternal({ href: url })),
  requestDisplayMode: (mode: DisplayMode): Promise<DisplayMode> =>
    act("requestDisplayMode", () => {
      const a = ctx.availableDisplayModes;
      if (a && !a.includes(mode)) throw unsupported("requestDisplayMode(" + mode + ")");
      return request("ui/request-display-mode", { mode }).then((r) => r.mode);
    }, () => Promise.resolve(O.requestDisplayMode({ mode })).then((r) => r?.mode || mode)),
  requestClose: () => act<void>("requestClose", async () => post({ method: "ui/notifications/request-teardown", params: {} }), () => O.requestClose()),
  updateModelContext: (p: { content?: Obj[]; structuredContent?: Obj }) => act("updateModelContext", () => request("ui/update-model-context", p)),
  readResource: (uri: string) => act<any>("readResource", () => request("resources/read", { uri })),
  downloadFile: (contents: Obj[]) => act("downloadFile", () => request("ui/download-file", { contents }).then(checked("downloadFile"))),
  uploadFile: (file: File, options?: Obj) => act<any>("uploadFile", undefined, () => O.uploadFile(file, options)),
  getFileDownloadUrl: (fileId: string) => act<any>("getFileDownloadUrl", undefined, () => O.getFileDownloadUrl({ fileId })),
  requestModal: (options: Obj = {}) => act<void>("requestModal", undefined, () => O.requestModal(options)),
  getState: () => widget.state,
  setState,
  /** Log to the host (MCP notifications/message) or the console. */
  log(level: string, data: unknown) {
    use();
    if (MCP && up && caps.logging) post({ method: "notifications/message", params: { level, data, logger: "widgetd" } });
    else (console as any)[level == "error" || level == "warning" ? (level == "error" ? "error" : "warn") : "log"](data);
  },
  /** Send one size report now (in addition to, or instead of, autoResize). */
  notifySize: (height?: number) => { use(); connect().then(() => (height ? sendSize(undefined, height) : (size = "", measure()))); },
};
export default widget;

// ---- window.openai polyfill on MCP Apps hosts -------------------------------------
function snapshot(): Obj {
  const dev = ctx.platform == "mobile" ? "mobile" : ctx.platform == "desktop" ? "desktop" : "unknown";
  return {
    toolInput: input ?? null,
    toolOutput: result?.structuredContent ?? null,
    toolResponseMetadata: result?._meta ?? null,
    widgetState: state,
    theme: ctx.theme,
    displayMode: ctx.displayMode,
    maxHeight: ctx.containerDimensions?.maxHeight,
    safeArea: { insets: ctx.safeAreaInsets || { top: 0, right: 0, bottom: 0, left: 0 } },
    view: { mode: ctx.displayMode },
    userAgent: { device: { type: dev }, capabilities: ctx.deviceCapabilities || { hover: true, touch: false } },
    locale: ctx.locale,
  };
}
if (MCP) {
  const poly: Obj = {
    callTool: widget.callTool,
    sendFollowUpMessage: (a: { prompt: string }) => widget.sendMessage(a.prompt),
    openExternal: (a: { href: string }) => void widget.openLink(a.href).catch(console.error),
    requestDisplayMode: (a: { mode: DisplayMode }) => widget.requestDisplayMode(a.mode).then((mode) => ({ mode })),
    requestClose: widget.requestClose,
    notifyIntrinsicHeight: (h: any) => widget.notifySize(typeof h == "object" ? h.height : h),
    setWidgetState: setState,
    requestModal: widget.requestModal,
    uploadFile: widget.uploadFile,
    getFileDownloadUrl: (a: { fileId: string }) => widget.getFileDownloadUrl(a.fileId),
  };
  for (const k of ["toolInput", "toolOutput", "toolResponseMetadata", "widgetState", "theme", "displayMode", "maxHeight", "safeArea", "view", "userAgent", "locale"])
    Object.defineProperty(poly, k, { get: () => { use(); return snapshot()[k]; }, enumerable: true });
  Object.defineProperty(W, "openai", { get: () => { use(); return poly; }, configurable: true });
}

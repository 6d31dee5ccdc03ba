// widgetd bridge: one small API over ChatGPT's window.openai and the MCP Apps
// ui/* JSON-RPC protocol. widgetd imports this module ahead of every widget's
// own code. In a frame it restores persisted state at once, installs the
// window.openai polyfill on MCP Apps hosts, and starts the ui/* session after
// a short wait (cfg.adoptWait) that lets the page's own ext-apps `App` do the
// handshake first (the bridge then adopts that session). The protocol follows
// capability: standard calls go over ui/* whenever the host answers
// ui/initialize (MCP Apps hosts, and ChatGPT), window.openai serves what only
// ChatGPT has, and a host with window.openai but no ui/* works through
// window.openai alone. See docs/bridge.md for the full story.
import { WidgetdError } from "./errors";

export { WidgetdError };
export type { ErrorCode } from "./errors";

type Obj = Record<string, any>;
type Fn = (v: any) => any;

/** Which host the widget runs in. */
export type Host = "chatgpt" | "mcp-apps" | "standalone";
/** Display modes of both protocols ("modal" is ChatGPT's, host-driven). */
export type DisplayMode = "inline" | "fullscreen" | "pip" | "modal";
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
const framed = P !== W;
const host: Host = O ? "chatgpt" : framed ? "mcp-apps" : "standalone";
/** The polyfill's host: an MCP Apps host without window.openai. */
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
const subs: Record<string, Set<Fn>> = {};
const last: Record<string, any> = {};
const seen: Record<string, string> = {};
const json = (v: any) => { try { return JSON.stringify(v) ?? ""; } catch { return "?" + seq++; } };

/** Merges a context update; ctx keeps its identity when nothing changed. */
function merge(p: Obj) {
  const n = { ...ctx, ...p };
  if (json(n) != json(ctx)) ctx = n;
}
/** Calls k's subscribers with v unless v equals the last value sent for k. */
function emit(k: string, v: any): any[] {
  const out: any[] = [];
  const j = k == "teardown" ? "" : json(v);
  if (j && seen[k] === j) return out;
  seen[k] = j;
  last[k] = v;
  subs[k]?.forEach((f) => {
    try { out.push(f(v)); } catch (e) { console.error(e); }
  });
  // A server may send a previous state with the result; a saved one wins.
  const s = k == "toolResult" && state == null && v?._meta?.["openai/widgetState"];
  if (s) emit("state", (state = s));
  if (MCP) refreshGlobals();
  return out;
}
function on(k: string, cb: Fn, replay?: boolean): () => void {
  (subs[k] ||= new Set()).add(cb);
  if (replay && k in last) cb(last[k]);
  return () => void subs[k].delete(cb);
}
const err = (c: any, f: string, m: string, d?: unknown) => new WidgetdError(c, f, m, d);
const unsupported = (f: string) => err("unsupported", f, "not supported by this host (" + host + ")");

// ---- theming and size --------------------------------------------------------
let applied: string[] = [];
function theme() {
  if (!cfg.theming) return;
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
let asked: number | undefined;
/** Sends one size report unless it equals the last one. */
function sendSize(width: number | undefined, height: number) {
  const k = width + "x" + height;
  if (k == size) return;
  size = k;
  if (!up) O?.notifyIntrinsicHeight?.(height);
  else if (!adopted) post({ method: "ui/notifications/size-changed", params: width ? { width, height } : { height } });
}
function measure() {
  if (asked) return sendSize(undefined, asked);
  const h = D.documentElement, old = h.style.height;
  h.style.height = "max-content";
  const r = Math.ceil(h.getBoundingClientRect().height);
  h.style.height = old;
  sendSize(Math.ceil(W.innerWidth), r);
}
/** Debounced measure: every size report goes through here. */
const later = () => { clearTimeout(timer); timer = setTimeout(measure, cfg.resizeDebounce); };
function resize() {
  if (!cfg.autoResize || ro || adopted || !framed || !W.ResizeObserver) return;
  ro = new ResizeObserver(later);
  ro.observe(D.documentElement);
  D.body && ro.observe(D.body);
  later();
}

// ---- persisted state -----------------------------------------------------------
// Restored synchronously at import: from ChatGPT's widgetState, else from this
// frame's window.name (survives reloads of the same frame), else from storage
// keyed by the page. Once the host names the tool call (hostContext.toolInfo),
// storage keyed by that call wins.
let mem: Obj = {};
const NAME = "widgetd:state:";
const key = () => NAME + (ctx.toolInfo ? ctx.toolInfo.tool?.name + ":" + ctx.toolInfo.id : location.pathname);
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
function parse(s: any) {
  if (s != null) { try { return JSON.parse(s); } catch { /* corrupt entry */ } }
}
function loadState(): any {
  const n = W.name;
  return parse(typeof n == "string" && n.startsWith(NAME) ? n.slice(NAME.length) : store(key()));
}

// ---- MCP Apps JSON-RPC over postMessage -------------------------------------
let seq = 0;
let up = false;
let sent = false;
let adopted = false;
let startTimer: any;
let listeners = 0;
let settle: Fn = () => {};
let fail: Fn = () => {};
/** Settles when a ui/* session exists, or (window.openai) when the probe went unanswered. */
export const session: Promise<void> = new Promise((res, rej) => ((settle = res), (fail = rej)));
session.catch(() => {});
const pending = new Map<string, [Fn, Fn, any, string]>();
/** Requests the host may send to the view (e.g. view tools), by method. */
export const viewHandlers: Record<string, (params: Obj) => Promise<Obj> | Obj> = {};
/** appCapabilities additions (e.g. tools), merged into ui/initialize. */
export const appCapabilities: Obj = {};

function post(m: Obj) { P.postMessage({ jsonrpc: "2.0", ...m }, "*"); }
/** Whether a ui/* session exists (ours or an adopted one). */
export const sessionUp = () => up;
/** Sends a JSON-RPC notification to the host (only once a session exists). */
export function notify(method: string, params: Obj = {}) { if (up && !adopted) post({ method, params }); }
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
  ctx = { ...ctx, ...r.hostContext };
  const saved = ctx.toolInfo && parse(store(key()));
  if (saved !== undefined) emit("state", (state = saved));
  theme();
  size = "";
  ro ? later() : resize();
  settle(undefined);
  emit("hostContext", ctx);
}
/** Starts our own handshake unless a session exists or is being made. */
function start() {
  if (up || sent) return;
  sent = true;
  // Under window.openai the handshake is a probe: without an answer the
  // bridge simply stays on window.openai.
  request("ui/initialize", { appInfo: cfg.appInfo, appCapabilities: { availableDisplayModes: cfg.displayModes, ...appCapabilities }, protocolVersion: VERSION }, O ? 1000 : cfg.timeout)
    .then((r) => { if (!up) { post({ method: "ui/notifications/initialized", params: {} }); init(r); } },
      (e) => (O ? settle(undefined) : (fail(e), console.error(e))));
}
/** Schedules start() after ms, decided after the current task (so an App connecting in it is seen). */
function schedule(ms: number) {
  if (up || sent) return;
  clearTimeout(startTimer);
  startTimer = setTimeout(() => setTimeout(start), ms);
}
/** Resolves when the session exists (MCP Apps) or is known not to (window.openai, standalone). */
function connect(): Promise<void> {
  if (!framed) return Promise.resolve();
  if (!listeners) schedule(0); // nobody to adopt: no reason to wait
  return session;
}

if (framed) {
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
      const h = viewHandlers[method];
      if (method == "ui/resource-teardown") Promise.all(emit("teardown", params)).finally(() => reply({ result: {} }));
      else if (method == "ping") reply({ result: {} });
      else if (h) Promise.resolve().then(() => h(params)).then((result) => reply({ result }), (x) => reply({ error: { code: -32603, message: String(x?.message || x) } }));
      else reply({ error: { code: -32601, message: "Method not found: " + method } });
      return;
    }
    if (method == "ui/notifications/tool-input") emit("toolInput", (input = params.arguments || {}));
    else if (method == "ui/notifications/tool-input-partial") emit("toolInputPartial", params.arguments || {});
    else if (method == "ui/notifications/tool-result") emit("toolResult", (result = params));
    else if (method == "ui/notifications/tool-cancelled") emit("toolCancelled", params);
    else if (method == "ui/notifications/host-context-changed") {
      merge(params);
      theme();
      emit("hostContext", ctx);
    }
  });
  W.addEventListener = function (this: any, t: string, ...a: any[]) {
    if (t == "message") listeners++;
    return add.call(this, t, ...a);
  };
  // The session starts at load, after the adopt wait.
  setTimeout(() => schedule(cfg.adoptWait));
}

// ---- ChatGPT (window.openai) -------------------------------------------------
function readOpenai(g: Obj) {
  const dev = g.userAgent?.device?.type;
  return {
    theme: g.theme, displayMode: g.displayMode, locale: g.locale,
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
/** Merges window.openai globals into the context (ui/* context keys win once a session exists). */
function fromOpenai(g: Obj) {
  const r: Obj = readOpenai(g);
  for (const k in r) if (r[k] === undefined || (up && k in ctx)) delete r[k];
  merge(r);
}
if (O) {
  const g0 = O.toolInput;
  state = O.widgetState ?? null;
  if (g0) emit("toolInput", (input = g0));
  if ((result = resultOf(O))) emit("toolResult", result);
  fromOpenai(O);
  hostInfo = { name: "chatgpt" };
  theme();
  W.addEventListener("openai:set_globals", (e: CustomEvent) => {
    const d = e.detail?.globals || {};
    const g = { ...O, ...d };
    if (d.toolInput) emit("toolInput", (input = d.toolInput));
    if ("toolOutput" in d || "toolResponseMetadata" in d) emit("toolResult", (result = resultOf(g)));
    if ("widgetState" in d) emit("state", (state = d.widgetState));
    fromOpenai(g);
    theme();
    emit("hostContext", ctx);
  });
  resize();
} else if (framed) {
  state = loadState() ?? null;
} else {
  // ---- standalone preview ------------------------------------------------------
  const q = new URLSearchParams(location.search), j = (k: string) => parse(q.get(k));
  console.info("widgetd: no host; preview with ?toolInput=<json>&toolOutput=<json>&theme=dark");
  input = j("toolInput");
  const out = j("toolOutput");
  if (out) last.toolResult = result = { content: [], structuredContent: out };
  if (input) last.toolInput = input;
  ctx = { theme: q.get("theme") || undefined, displayMode: "inline" };
  state = loadState() ?? null;
  theme();
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
/** Whether the ui/* session offers f. */
const uiCan = (f: Feature) => (f in CAPS ? !!caps[CAPS[f]] : f == "requestDisplayMode" || f == "requestClose");
const uiHas = (f: Feature) => up && uiCan(f);

function supports(f: Feature): boolean {
  return f == "log" || (f == "state" && !O) || ((MCP || up) && uiCan(f)) || typeof O?.[OPENAI[f]] == "function";
}
/** Runs f over ui/* when the session has it, else over window.openai. */
function act<T>(f: Feature, mcp?: () => Promise<T>, openai?: () => any): Promise<T> {
  if (!framed) return Promise.reject(err("no-host", f, "no host: the page was opened directly"));
  const go = (): any => {
    if (mcp && uiHas(f)) return mcp();
    if (openai && supports(f)) return openai();
    throw unsupported(f);
  };
  return O ? Promise.resolve().then(go) : connect().then(go);
}
const checked = (f: string) => (r: Obj) => {
  if (r?.isError) throw err("host", f, "the host refused", r);
  return r;
};

function setState(s: any): Promise<void> {
  state = s;
  emit("state", s);
  if (O) return act("state", undefined, () => O.setWidgetState(s));
  try {
    const j = JSON.stringify(s);
    store(key(), j);
    if (framed && (!W.name || W.name.startsWith(NAME))) W.name = NAME + j;
  } catch (e) { return Promise.reject(e); }
  return Promise.resolve();
}

/** The bridge: data, events and actions over whatever host the widget runs in. */
export const widget = {
  /** The detected host. */
  get host(): Host { return host; },
  /** hostInfo from ui/initialize ({name:"chatgpt"} on ChatGPT without ui/*). */
  get hostInfo() { return hostInfo; },
  /** Host capabilities from ui/initialize. */
  get hostCapabilities() { return caps; },
  /** Arguments of the tool call that rendered this widget. */
  get toolInput() { return input; },
  /** structuredContent of the tool result. */
  get toolOutput() { return result?.structuredContent; },
  /** The widget-only _meta of the tool result. */
  get toolMeta() { return result?._meta; },
  /** The full CallToolResult. */
  get toolResult() { return result; },
  /** Host context: theme, displayMode, locale, styles, ... */
  get hostContext() { return ctx; },
  /** Persisted widget state (ChatGPT widgetState, polyfilled elsewhere). */
  get state() { return state; },
  /** Resolves once the host session is established (or known absent). */
  ready: (): Promise<void> => connect(),
  /** Change tunables; call before first use. */
  configure(c: Partial<Config>) { Object.assign(cfg, c); if (c.autoResize === false) { ro?.disconnect(); ro = undefined; } else if (up || O) resize(); },
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
  sendMessage: (text: string | Obj[], opts?: { scrollToBottom?: boolean }) =>
    act("sendMessage", () => request("ui/message", { role: "user", content: typeof text == "string" ? [{ type: "text", text }] : text }).then(checked("sendMessage")),
      () => O.sendFollowUpMessage({ prompt: typeof text == "string" ? text : text.map((c) => c.text || "").join("\n"), ...opts })),
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
  getState: () => state,
  setState,
  /** Log to the host (MCP notifications/message) or the console. */
  log(level: string, data: unknown) {
    if (up && caps.logging) notify("notifications/message", { level, data, logger: "widgetd" });
    else (console as any)[level == "error" ? "error" : level == "warning" ? "warn" : "log"](data);
  },
  /** Report a height (or a fresh measurement), debounced and deduplicated like autoResize. */
  notifySize: (height?: number) => { asked = height; (O ? Promise.resolve() : connect()).then(later); },
};
export default widget;

// ---- window.openai polyfill on MCP Apps hosts -------------------------------------
// Every global keeps its identity until its value changes, and
// openai:set_globals carries only the changed keys, dispatched after the
// current task step (never from inside a listener).
const globals: Obj = {};
const changed = new Set<string>();
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
    view: { mode: ctx.displayMode, params: ctx.view?.params },
    userAgent: { device: { type: dev }, capabilities: ctx.deviceCapabilities || { hover: true, touch: false } },
    locale: ctx.locale,
  };
}
function refreshGlobals() {
  const s = snapshot();
  for (const k in s) {
    if (json(s[k]) !== json(globals[k]) || !(k in globals)) {
      const first = !(k in globals);
      globals[k] = s[k];
      if (!first && !changed.size) queueMicrotask(flushGlobals);
      if (!first) changed.add(k);
    }
  }
}
function flushGlobals() {
  const d: Obj = {};
  changed.forEach((k) => (d[k] = globals[k]));
  changed.clear();
  W.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals: d } }));
}
if (MCP) {
  refreshGlobals();
  const poly: Obj = {
    callTool: widget.callTool,
    sendFollowUpMessage: (a: { prompt: string; scrollToBottom?: boolean }) => widget.sendMessage(a.prompt),
    openExternal: (a: { href: string }) => void widget.openLink(a.href).catch(console.error),
    requestDisplayMode: (a: { mode: DisplayMode }) => widget.requestDisplayMode(a.mode).then((mode) => ({ mode })),
    requestClose: widget.requestClose,
    notifyIntrinsicHeight: (h: any) => widget.notifySize(typeof h == "object" ? h.height : h),
    setWidgetState: setState,
  };
  for (const k in globals) Object.defineProperty(poly, k, { get: () => globals[k], enumerable: true });
  Object.defineProperty(W, "openai", { value: poly, configurable: true });
}

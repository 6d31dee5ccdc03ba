// widgetd bridge: one small API over ChatGPT's window.openai and the MCP Apps
// ui/* JSON-RPC protocol. widgetd imports this module ahead of every widget's
// own code. In a frame it restores persisted state at once, installs the
// window.openai polyfill on MCP Apps hosts, and starts the ui/* session as
// soon as the page's modules ran; in a widget that bundles code doing its own
// handshake (an ext-apps `App`, whose module the App adapter marks) it lets
// that handshake go first and adopts the session (config.adoptWait is the
// longest it waits). The protocol
// follows capability: standard calls go over ui/* whenever the host answers
// ui/initialize (MCP Apps hosts, and ChatGPT), window.openai serves what only
// ChatGPT has, and a host with window.openai but no ui/* works through
// window.openai alone. See docs/bridge.md for the full story.
//
// Every widget ships this module minified, so its bytes are part of every
// widget's content hash (docs/bridge.md, "Changing the bridge"). esbuild
// renames locals and module-level names and keeps property names, strings
// and the shape of the code, so names here are written for readers. Two
// habits keep the output as small as it was:
// - `==`/`!=` where both sides are strings (event names, methods, features):
//   there it means what `===` means, and esbuild, which cannot prove the
//   types, would keep a written `===` (one byte more in every widget).
//   Where esbuild can prove them (typeof) the code says `===`.
// - `== null`/`!= null` where null and undefined deliberately mean the same
//   ("absent"); each such place says so.
import { WidgetdError } from "./errors";
import { contextFromOpenai, PROBE_WAIT, PROTOCOL_VERSION, themeDocument, toolResultFromOpenai } from "./shared";

export { PROBE_WAIT, WidgetdError };
// The public types, declared once for widget authors and for this module in
// widgetd.d.ts (module "widgetd").
import type { CallToolResult, Config, ContentBlock, DisplayMode, Feature, Host } from "widgetd";

/** A JSON object from the host or the widget. */
type JSONObject = Record<string, any>;
/** A subscriber, promise settler or handler of one value. */
type Callback = (value: any) => any;

// Aliases of globals: esbuild shortens a local name, never `window` or
// `document`, so each alias saves bytes in every widget.
const win = window as any;
const doc = document;
/** ChatGPT's window.openai as found at import (undefined elsewhere; the polyfill comes later). */
const openai = win.openai;
/** The host's window: every ui/* message goes to it and only its messages count. */
const hostWindow = win.parent;
const framed = hostWindow !== win;
const host: Host = openai ? "chatgpt" : framed ? "mcp-apps" : "standalone";
/** Whether this is an MCP Apps host without window.openai: the polyfill's host. */
const polyfillHost = host == "mcp-apps";

/** Tunables; change them with widget.configure() before first use. */
const config: Config = {
  timeout: 30000, autoResize: true, resizeDebounce: 50, theming: true, adoptWait: 300,
  appInfo: { name: doc.title || "widgetd-widget", version: "1" },
  displayModes: [],
};

// ---- state and events -------------------------------------------------------
let toolInput: JSONObject | undefined;
/** An MCP logging level (notifications/message). */
type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
let toolResult: CallToolResult | undefined;
let hostContext: JSONObject = {};
let hostCapabilities: JSONObject = {};
let hostInfo: { name: string; version?: string } | undefined;
let state: any = null;
const subscribers: Record<string, Set<Callback>> = {};
/** The last value emitted per event, replayed to late subscribers. */
const lastValue: Record<string, any> = {};
/** The JSON of the last value emitted per event: an equal value is not emitted again. */
const lastJSON: Record<string, string> = {};
/** JSON of v for comparisons; a value JSON cannot encode gets a key equal to no other. */
const comparable = (v: any) => { try { return JSON.stringify(v) ?? ""; } catch { return "?" + sequence++; } };

/** Merges a context update; hostContext keeps its identity when nothing changed. */
function mergeContext(update: JSONObject) {
  const merged = { ...hostContext, ...update };
  if (comparable(merged) != comparable(hostContext)) hostContext = merged;
}
/** Calls event's subscribers with value unless it equals the last value sent for event. */
function emit(event: string, value: any): any[] {
  const returned: any[] = [];
  const key = event == "teardown" ? "" : comparable(value);
  if (key && lastJSON[event] === key) return returned;
  lastJSON[event] = key;
  lastValue[event] = value;
  subscribers[event]?.forEach((callback) => {
    try { returned.push(callback(value)); } catch (e) { console.error(e); }
  });
  // A server may send a previous state with the result; a saved one wins
  // (state == null: none saved, null or undefined alike).
  const sentState = event == "toolResult" && state == null && value?._meta?.["openai/widgetState"];
  if (sentState) emit("state", (state = sentState));
  if (polyfillHost) refreshGlobals();
  return returned;
}
/** Whether the current tool result came over ui/* (else window.openai). */
let resultOverUi: any;
/** What window.openai carries of a result: its structuredContent and _meta (an empty one as none). */
const resultKey = (r: any) => comparable([r?.structuredContent, { ...r?._meta }]);
/**
 * Emits a tool result, unless it is the current one seen again over the
 * other channel: today's ChatGPT sends each result as window.openai globals
 * and as ui/notifications/tool-result. The ui/* copy, which has the
 * content, is kept without a second onToolResult.
 */
function deliverResult(result: any, overUi?: any) {
  if (toolResult && overUi != resultOverUi && resultKey(result) == resultKey(toolResult)) {
    if (overUi) lastJSON.toolResult = comparable((lastValue.toolResult = toolResult = result));
  } else emit("toolResult", (toolResult = result));
  resultOverUi = overUi;
}
/** Subscribes callback to event; replay calls it at once with the last value, if any. */
function subscribe(event: string, callback: Callback, replay?: boolean): () => void {
  (subscribers[event] ||= new Set()).add(callback);
  if (replay && event in lastValue) callback(lastValue[event]);
  return () => void subscribers[event].delete(callback);
}
const bridgeError = (code: any, feature: string, message: string, data?: unknown) => new WidgetdError(code, feature, message, data);
const unsupported = (feature: string) => bridgeError("unsupported", feature, "not supported by this host (" + host + ")");

// ---- theming and size --------------------------------------------------------
/** The style variables set on <html> by the last applyTheme. */
let appliedVariables: string[] = [];
/** Applies hostContext's theme, style variables and fonts to the document. */
function applyTheme() {
  if (config.theming) appliedVariables = themeDocument(hostContext, appliedVariables);
}

let resizeObserver: ResizeObserver | undefined;
let measureTimer: any;
/** The last size reported ("<width>x<height>"). */
let lastSize = "";
/** The height given to widget.notifySize, which replaces measuring. */
let requestedHeight: number | undefined;
/** Sends one size report unless it equals the last one. */
function sendSize(width: number | undefined, height: number) {
  const size = width + "x" + height;
  if (size == lastSize) return;
  lastSize = size;
  if (!sessionIsUp) openai?.notifyIntrinsicHeight?.(height);
  else if (!adoptedSession) postToHost({ method: "ui/notifications/size-changed", params: width ? { width, height } : { height } });
}
function measure() {
  if (requestedHeight) return sendSize(undefined, requestedHeight);
  const root = doc.documentElement, oldHeight = root.style.height;
  root.style.height = "max-content";
  const height = Math.ceil(root.getBoundingClientRect().height);
  root.style.height = oldHeight;
  sendSize(Math.ceil(win.innerWidth), height);
}
/** Debounced measure: every size report goes through here. */
const measureSoon = () => { clearTimeout(measureTimer); measureTimer = setTimeout(measure, config.resizeDebounce); };
/** Starts reporting the document's size as it changes (once, where it applies). */
function observeSize() {
  if (!config.autoResize || resizeObserver || adoptedSession || !framed || !win.ResizeObserver) return;
  resizeObserver = new ResizeObserver(measureSoon);
  resizeObserver.observe(doc.documentElement);
  doc.body && resizeObserver.observe(doc.body);
  measureSoon();
}

// ---- persisted state -----------------------------------------------------------
// Restored synchronously at import: from ChatGPT's widgetState, else from this
// frame's window.name (survives reloads of the same frame), else from storage
// keyed by the page. Once the host names the tool call (hostContext.toolInfo),
// storage keyed by that call wins.
/** The last storage when localStorage and sessionStorage are blocked. */
let memoryStorage: JSONObject = {};
const STATE_PREFIX = "widgetd:state:";
const stateKey = () => STATE_PREFIX + (hostContext.toolInfo ? hostContext.toolInfo.tool?.name + ":" + hostContext.toolInfo.id : location.pathname);
/** Reads key (value undefined) or writes it: localStorage, else sessionStorage, else memory. */
function storage(key: string, value?: string) {
  for (const name of ["localStorage", "sessionStorage"]) {
    try {
      const store = win[name];
      if (value === undefined) return store.getItem(key) ?? memoryStorage[key];
      store.setItem(key, value);
      return;
    } catch { /* storage blocked: try the next one, then memory */ }
  }
  if (value === undefined) return memoryStorage[key];
  memoryStorage[key] = value;
}
/** Parses stored JSON; undefined when nothing (null or undefined) is stored or it is corrupt. */
function parseJSON(text: any) {
  if (text != null) { try { return JSON.parse(text); } catch { /* corrupt entry */ } }
}
function loadState(): any {
  const frameName = win.name;
  return parseJSON(typeof frameName === "string" && frameName.startsWith(STATE_PREFIX) ? frameName.slice(STATE_PREFIX.length) : storage(stateKey()));
}

// ---- MCP Apps JSON-RPC over postMessage -------------------------------------
/** Numbers request ids (and JSON keys of values JSON cannot encode). */
let sequence = 0;
/** Whether a ui/* session exists (ours or an adopted one). */
let sessionIsUp = false;
/** Whether our ui/initialize went out. */
let handshakeSent = false;
/** Whether the session is another client's (an ext-apps App's) that the bridge adopted. */
let adoptedSession = false;
let handshakeTimer: any;
/** Whether the widget bundles code that posts its own ui/initialize (see expectAppHandshake). */
let appExpected = false;
let resolveSession: Callback = () => {};
let rejectSession: Callback = () => {};
/** Settles when a ui/* session exists, or (window.openai) when the probe went unanswered. */
export const session: Promise<void> = new Promise((resolve, reject) => ((resolveSession = resolve), (rejectSession = reject)));
session.catch(() => {});
/** Requests awaiting the host's answer, by id: [resolve, reject, method, (re)start (truthy) or stop its timeout]. */
const pendingRequests = new Map<string, [Callback, Callback, string, (restart?: any) => void]>();
/** Requests the host may send to the view (e.g. view tools), by method. */
export const viewHandlers: Record<string, (params: JSONObject) => Promise<JSONObject> | JSONObject> = {};
/** appCapabilities additions (e.g. tools), merged into ui/initialize. */
export const appCapabilities: JSONObject = {};

function postToHost(message: JSONObject) { hostWindow.postMessage({ jsonrpc: "2.0", ...message }, "*"); }
/** Whether a ui/* session exists (ours or an adopted one). */
export const sessionUp = () => sessionIsUp;
/** Sends a JSON-RPC notification to the host (only once a session exists). */
export function notify(method: string, params: JSONObject = {}) { if (sessionIsUp && !adoptedSession) postToHost({ method, params }); }
/**
 * Sends a JSON-RPC request to the host; it rejects with "timeout" after
 * timeoutMs without an answer. With progress, params carry
 * _meta.progressToken (the request id, as the MCP SDK's Protocol does) and
 * each notifications/progress for it restarts the timeout (ext-apps >= 1.6).
 */
export function request(method: string, params?: JSONObject, timeoutMs = config.timeout, progress?: boolean): Promise<any> {
  const id = "wd" + ++sequence;
  return new Promise((resolve, reject) => {
    let timer: any;
    const timeout = (restart?: any) => {
      clearTimeout(timer);
      if (restart) timer = setTimeout(() => {
        pendingRequests.delete(id);
        reject(bridgeError("timeout", method, "no answer from the host within " + timeoutMs + " ms"));
      }, timeoutMs);
    };
    timeout(1);
    pendingRequests.set(id, [resolve, reject, method, timeout]);
    postToHost({ id, method, params: progress ? { ...params, _meta: { progressToken: id } } : params });
  });
}
/** Takes over the session that ui/initialize's result describes (ours or adopted). */
function initSession(initResult: JSONObject) {
  sessionIsUp = true;
  hostInfo = initResult.hostInfo;
  hostCapabilities = initResult.hostCapabilities || {};
  hostContext = { ...hostContext, ...initResult.hostContext };
  const saved = hostContext.toolInfo && parseJSON(storage(stateKey()));
  if (saved !== undefined) emit("state", (state = saved));
  applyTheme();
  lastSize = "";
  resizeObserver ? measureSoon() : observeSize();
  resolveSession(undefined);
  emit("hostContext", hostContext);
}
/** Starts our own handshake unless a session exists or is being made. */
function startHandshake() {
  if (sessionIsUp || handshakeSent) return;
  handshakeSent = true;
  // Under window.openai the handshake is a probe: ready() settles after
  // PROBE_WAIT without an answer, and the bridge stays on window.openai
  // unless the answer comes later.
  if (openai) setTimeout(resolveSession, PROBE_WAIT);
  request("ui/initialize", { appInfo: config.appInfo, appCapabilities: { availableDisplayModes: ["inline", ...config.displayModes.filter((mode) => mode != "inline" && mode != "modal")], ...appCapabilities }, protocolVersion: PROTOCOL_VERSION })
    .then((initResult) => { if (!sessionIsUp) { postToHost({ method: "ui/notifications/initialized", params: {} }); initSession(initResult); } },
      (e) => openai || (rejectSession(e), console.error(e)));
}
/** Schedules startHandshake() after ms, decided after the current task (so an App connecting in it is seen). */
function scheduleHandshake(ms: number) {
  if (sessionIsUp || handshakeSent) return;
  clearTimeout(handshakeTimer);
  handshakeTimer = setTimeout(() => setTimeout(startHandshake), ms);
}
/** Resolves when the session exists (MCP Apps) or is known not to (window.openai, standalone). */
function connect(): Promise<void> {
  if (!framed) return Promise.resolve();
  if (!appExpected) scheduleHandshake(0); // nobody to adopt: no reason to wait
  return session;
}
/**
 * Called by the App adapter at import, which the bundler puts ahead of every
 * module that posts its own ui/initialize (an ext-apps App, a vendored copy):
 * the bridge then waits up to config.adoptWait for that handshake and adopts
 * it, where it would otherwise start its own at once.
 */
export const expectAppHandshake = () => void (appExpected = true);
/** Called by the App adapter when the host left the App's ui/initialize unanswered: no ui/* session, and no probe of our own. */
export function settleWithoutSession() {
  handshakeSent = true;
  resolveSession(undefined);
}

if (framed) {
  win.addEventListener("message", (e: MessageEvent) => {
    const message = e.data;
    if (e.source !== hostWindow || !message || message.jsonrpc !== "2.0") return;
    const { id, method, params = {} } = message;
    if (method === undefined) {
      const pending = pendingRequests.get(id);
      if (pending) {
        pendingRequests.delete(id);
        pending[3]();
        message.error ? pending[1](bridgeError("host", pending[2], message.error.message, message.error)) : pending[0](message.result);
      } else if (!sessionIsUp && message.result?.hostCapabilities && message.result.protocolVersion) {
        adoptedSession = true; // another client (ext-apps App) completed the handshake
        initSession(message.result);
      }
      return;
    }
    if (id !== undefined) {
      const reply = (response: JSONObject) => !adoptedSession && sessionIsUp && postToHost({ id, ...response });
      const handler = viewHandlers[method];
      if (method == "ui/resource-teardown") Promise.all(emit("teardown", params)).finally(() => reply({ result: {} }));
      else if (method == "ping") reply({ result: {} });
      else if (handler) Promise.resolve().then(() => handler(params)).then((result) => reply({ result }), (x) => reply({ error: { code: -32603, message: String(x?.message || x) } }));
      else reply({ error: { code: -32601, message: "Method not found: " + method } });
      return;
    }
    if (method == "ui/notifications/tool-input") emit("toolInput", (toolInput = params.arguments || {}));
    else if (method == "ui/notifications/tool-input-partial") emit("toolInputPartial", params.arguments || {});
    else if (method == "ui/notifications/tool-result") deliverResult(params, 1);
    else if (method == "ui/notifications/tool-cancelled") emit("toolCancelled", params);
    else if (method == "notifications/progress") pendingRequests.get(params.progressToken)?.[3](1);
    else if (method == "ui/notifications/host-context-changed") {
      mergeContext(params);
      applyTheme();
      emit("hostContext", hostContext);
    }
  });
  // The session starts at load, once every module ran (the App adapter's
  // word included): at once, or after the adopt wait where an App may do it.
  setTimeout(() => scheduleHandshake(appExpected ? config.adoptWait : 0));
}

// ---- ChatGPT (window.openai) -------------------------------------------------
/** Merges window.openai globals into the context (ui/* context keys win once a session exists). */
function mergeOpenaiGlobals(globals: JSONObject) {
  const update: JSONObject = contextFromOpenai(globals);
  for (const key in update) if (update[key] === undefined || (sessionIsUp && key in hostContext)) delete update[key];
  mergeContext(update);
}
if (openai) {
  const initialToolInput = openai.toolInput;
  state = openai.widgetState ?? null;
  if (initialToolInput) emit("toolInput", (toolInput = initialToolInput));
  if ((toolResult = toolResultFromOpenai(openai))) emit("toolResult", toolResult);
  mergeOpenaiGlobals(openai);
  hostInfo = { name: "chatgpt" };
  applyTheme();
  win.addEventListener("openai:set_globals", (e: CustomEvent) => {
    const changed = e.detail?.globals || {};
    const globals = { ...openai, ...changed };
    if (changed.toolInput) emit("toolInput", (toolInput = changed.toolInput));
    if ("toolOutput" in changed || "toolResponseMetadata" in changed) deliverResult(toolResultFromOpenai(globals));
    if ("widgetState" in changed) emit("state", (state = changed.widgetState));
    mergeOpenaiGlobals(globals);
    applyTheme();
    emit("hostContext", hostContext);
  });
  observeSize();
} else if (framed) {
  state = loadState() ?? null;
} else {
  // ---- standalone preview ------------------------------------------------------
  const query = new URLSearchParams(location.search), queryJSON = (name: string) => parseJSON(query.get(name));
  console.info("widgetd: no host; preview with ?toolInput=<json>&toolOutput=<json>&theme=dark");
  toolInput = queryJSON("toolInput");
  const toolOutput = queryJSON("toolOutput");
  if (toolOutput) lastValue.toolResult = toolResult = { content: [], structuredContent: toolOutput };
  if (toolInput) lastValue.toolInput = toolInput;
  hostContext = { theme: query.get("theme") || undefined, displayMode: "inline" };
  state = loadState() ?? null;
  applyTheme();
}

// ---- actions ------------------------------------------------------------------
/** The hostCapabilities key a feature needs over ui/*. */
const UI_CAPABILITY: JSONObject = {
  callTool: "serverTools", readResource: "serverResources", openLink: "openLinks", sendMessage: "message",
  updateModelContext: "updateModelContext", log: "logging", downloadFile: "downloadFile",
};
/** The window.openai function behind a feature. */
const OPENAI_FUNCTION: JSONObject = {
  callTool: "callTool", sendMessage: "sendFollowUpMessage", openLink: "openExternal", requestDisplayMode: "requestDisplayMode",
  requestClose: "requestClose", state: "setWidgetState", updateModelContext: "setWidgetState",
};
/** Whether the ui/* session offers feature. */
const uiOffers = (feature: Feature) => (feature in UI_CAPABILITY ? !!hostCapabilities[UI_CAPABILITY[feature]] : feature == "requestDisplayMode" || feature == "requestClose");
/** Whether a ui/* session exists and offers feature. */
const sessionOffers = (feature: Feature) => sessionIsUp && uiOffers(feature);

function supports(feature: Feature): boolean {
  return feature == "log" || (feature == "state" && !openai) || ((polyfillHost || sessionIsUp) && uiOffers(feature)) || typeof openai?.[OPENAI_FUNCTION[feature]] === "function";
}
/** Runs feature over ui/* when the session has it, else over window.openai. */
function perform<T>(feature: Feature, overUi?: () => Promise<T>, overOpenai?: () => any): Promise<T> {
  if (!framed) return Promise.reject(bridgeError("no-host", feature, "no host: the page was opened directly"));
  const run = (): any => {
    if (overUi && sessionOffers(feature)) return overUi();
    if (overOpenai && supports(feature)) return overOpenai();
    throw unsupported(feature);
  };
  return openai ? Promise.resolve().then(run) : connect().then(run);
}
/** Passes a ui/* result through, rejecting one marked isError. */
const refusedIfError = (feature: string) => (result: JSONObject) => {
  if (result?.isError) throw bridgeError("host", feature, "the host refused", result);
  return result;
};

function setState(newState: any): Promise<void> {
  state = newState;
  emit("state", newState);
  if (openai) return perform("state", undefined, () => openai.setWidgetState(newState));
  try {
    const stateJSON = JSON.stringify(newState);
    storage(stateKey(), stateJSON);
    if (framed && (!win.name || win.name.startsWith(STATE_PREFIX))) win.name = STATE_PREFIX + stateJSON;
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
  get hostCapabilities() { return hostCapabilities; },
  /** Arguments of the tool call that rendered this widget. */
  get toolInput() { return toolInput; },
  /** structuredContent of the tool result. */
  get toolOutput() { return toolResult?.structuredContent; },
  /** The widget-only _meta of the tool result. */
  get toolMeta() { return toolResult?._meta; },
  /** The full CallToolResult. */
  get toolResult() { return toolResult; },
  /** Host context: theme, displayMode, locale, styles, ... */
  get hostContext() { return hostContext; },
  /** Persisted widget state (ChatGPT widgetState, polyfilled elsewhere). */
  get state() { return state; },
  /** Resolves once the host session is established (or known absent). */
  ready: (): Promise<void> => connect(),
  /** Change tunables; call before first use. */
  configure(changes: Partial<Config>) { Object.assign(config, changes); if (changes.autoResize === false) { resizeObserver?.disconnect(); resizeObserver = undefined; } else if (sessionIsUp || openai) observeSize(); },
  /** Whether the current host offers a feature (MCP Apps: accurate after ready()). */
  supports,
  onToolInput: (callback: Callback) => subscribe("toolInput", callback, true),
  onToolInputPartial: (callback: Callback) => subscribe("toolInputPartial", callback),
  onToolResult: (callback: Callback) => subscribe("toolResult", callback, true),
  onToolCancelled: (callback: Callback) => subscribe("toolCancelled", callback),
  onHostContextChanged: (callback: Callback) => subscribe("hostContext", callback),
  onStateChanged: (callback: Callback) => subscribe("state", callback),
  onTeardown: (callback: Callback) => subscribe("teardown", callback),
  /** Over ui/*, options.timeout (ms, default config.timeout) restarts at every progress notification from the host. */
  callTool: (name: string, args: JSONObject = {}, options?: { timeout?: number }) =>
    perform<any>("callTool", () => request("tools/call", { name, arguments: args }, options?.timeout, true), () => openai.callTool(name, args)),
  sendMessage: (text: string | ContentBlock[], options?: { scrollToBottom?: boolean }) =>
    perform("sendMessage", () => request("ui/message", { role: "user", content: typeof text === "string" ? [{ type: "text", text }] : text }).then(refusedIfError("sendMessage")),
      () => openai.sendFollowUpMessage({ prompt: typeof text === "string" ? text : text.map((block) => block.text || "").join("\n"), ...options })),
  /** options.redirectUrl reaches window.openai.openExternal (false: ChatGPT appends no ?redirectUrl=); ui/open-link has no such field. */
  openLink: (url: string, options?: { redirectUrl?: string | false }) =>
    perform("openLink", () => request("ui/open-link", { url }).then(refusedIfError("openLink")), () => openai.openExternal({ href: url, ...options })),
  requestDisplayMode: (mode: DisplayMode): Promise<DisplayMode> =>
    perform("requestDisplayMode", () => {
      const available = hostContext.availableDisplayModes;
      if (mode == "modal" || (available && !available.includes(mode))) throw unsupported("requestDisplayMode(" + mode + ")");
      return request("ui/request-display-mode", { mode }).then((granted) => granted.mode);
    }, () => Promise.resolve(openai.requestDisplayMode({ mode })).then((granted) => granted?.mode || mode)),
  /** window.openai.requestClose() where it exists (a host may ignore request-teardown), else ui/notifications/request-teardown. */
  requestClose: () => perform<void>("requestClose", openai?.requestClose ? undefined : async () => postToHost({ method: "ui/notifications/request-teardown", params: {} }), () => openai.requestClose()),
  /** Without ui/* on window.openai: setState({ ...state, modelContent }), OpenAI's documented way to show the model widget data. */
  updateModelContext: (update: { content?: ContentBlock[]; structuredContent?: Record<string, unknown> }) =>
    perform("updateModelContext", () => request("ui/update-model-context", update), () => setState({ ...state, modelContent: update.structuredContent ?? update.content })),
  readResource: (uri: string) => perform<any>("readResource", () => request("resources/read", { uri })),
  downloadFile: (contents: JSONObject[]) => perform("downloadFile", () => request("ui/download-file", { contents }).then(refusedIfError("downloadFile"))),
  getState: () => state,
  setState,
  /** Log to the host (MCP notifications/message) or the console. */
  log(level: LogLevel, data: unknown) {
    if (sessionIsUp && hostCapabilities.logging) notify("notifications/message", { level, data, logger: "widgetd" });
    else (console as any)[level == "error" ? "error" : level == "warning" ? "warn" : "log"](data);
  },
  /** Report a height (or a fresh measurement), debounced and deduplicated like autoResize. */
  notifySize: (height?: number) => { requestedHeight = height; (openai ? Promise.resolve() : connect()).then(measureSoon); },
};
export default widget;

// ---- window.openai polyfill on MCP Apps hosts -------------------------------------
// Every global keeps its identity until its value changes, and
// openai:set_globals carries only the changed keys, dispatched after the
// current task step (never from inside a listener).
const polyfillGlobals: JSONObject = {};
/** Globals changed since the last openai:set_globals. */
const changedGlobals = new Set<string>();
/** The window.openai globals that the bridge's current data implies. */
function snapshotGlobals(): JSONObject {
  const deviceType = hostContext.platform == "mobile" ? "mobile" : hostContext.platform == "desktop" ? "desktop" : "unknown", containerDimensions = hostContext.containerDimensions;
  return {
    toolInput: toolInput ?? null,
    toolOutput: toolResult?.structuredContent ?? null,
    toolResponseMetadata: toolResult?._meta ?? null,
    widgetState: state,
    theme: hostContext.theme,
    displayMode: hostContext.displayMode,
    // No limit: a fixed height is one; older hosts send viewport.maxHeight.
    maxHeight: containerDimensions?.maxHeight ?? containerDimensions?.height ?? hostContext.viewport?.maxHeight,
    safeArea: { insets: hostContext.safeAreaInsets || { top: 0, right: 0, bottom: 0, left: 0 } },
    view: { mode: hostContext.displayMode, params: hostContext.view?.params },
    userAgent: { device: { type: deviceType }, capabilities: hostContext.deviceCapabilities || { hover: true, touch: false } },
    locale: hostContext.locale,
  };
}
/** Updates the polyfill's globals; a change to an existing one is dispatched in a microtask. */
function refreshGlobals() {
  const snapshot = snapshotGlobals();
  for (const name in snapshot) {
    if (comparable(snapshot[name]) !== comparable(polyfillGlobals[name]) || !(name in polyfillGlobals)) {
      const first = !(name in polyfillGlobals);
      polyfillGlobals[name] = snapshot[name];
      if (!first && !changedGlobals.size) queueMicrotask(flushGlobals);
      if (!first) changedGlobals.add(name);
    }
  }
}
/** Dispatches openai:set_globals with the globals changed since the last one. */
function flushGlobals() {
  const changed: JSONObject = {};
  changedGlobals.forEach((name) => (changed[name] = polyfillGlobals[name]));
  changedGlobals.clear();
  win.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals: changed } }));
}
if (polyfillHost) {
  refreshGlobals();
  const polyfill: JSONObject = {
    callTool: widget.callTool,
    sendFollowUpMessage: (args: { prompt: string; scrollToBottom?: boolean }) => widget.sendMessage(args.prompt),
    openExternal: (args: { href: string }) => void widget.openLink(args.href).catch(console.error),
    requestDisplayMode: (args: { mode: DisplayMode }) => widget.requestDisplayMode(args.mode).then((mode) => ({ mode })),
    requestClose: widget.requestClose,
    notifyIntrinsicHeight: (height: any) => widget.notifySize(typeof height === "object" ? height.height : height),
    setWidgetState: setState,
  };
  for (const name in polyfillGlobals) Object.defineProperty(polyfill, name, { get: () => polyfillGlobals[name], enumerable: true });
  Object.defineProperty(win, "openai", { value: polyfill, configurable: true });
}

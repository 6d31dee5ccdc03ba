// The widgetd dev preview host. It runs on the preview origin's pages and
// renders one widget in a sandboxed iframe loaded from the sandbox origin
// (which serves the widget under its strict spec CSP, or none to emulate
// ChatGPT's developer mode). The hosts are in hosts.ts: the real AppBridge +
// PostMessageTransport from @modelcontextprotocol/ext-apps answers ui/*, as a
// web MCP Apps host drives a View (mcp-apps.md §3, §4), on every host but
// chatgpt-legacy; window.openai, installed in the widget frame by the sandbox
// origin (chatgpt-apps.md §1), on both ChatGPT hosts, its calls arriving here
// by postMessage. Every message both ways is logged.
//
// It also follows the dev server's build events (SSE): a widget whose hash
// changed is reloaded, a failed build shows an overlay with file:line:col.
// Bundled by `go generate ./devserver` into ../static/hostapp.js.
import { AppBridge, PostMessageTransport, buildAllowAttribute } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { McpUiHostContext, McpUiDisplayMode } from "@modelcontextprotocol/ext-apps/app-bridge";
import { hostStyles } from "./styles";
import { hostProfile, claudeDomainProblem } from "./hosts";
import * as hmr from "./hmr";

interface PageConfig {
  base: string;
  widget?: string;
  sandboxUrl: string;
  mcp?: string;
  version: string;
}

interface Diagnostic {
  file: string;
  line?: number;
  column?: number;
  message: string;
  warning?: boolean;
  text: string;
}

interface WidgetInfo {
  name: string;
  title?: string;
  hash: string;
  csp: string;
  uri: string;
  meta: Record<string, any>;
  fixtures?: NamedFixture[];
  fixtureError?: string;
  tool?: string;
}

// One fixture (fixture.schema.json), as devserver.Fixture marshals it.
interface Fixture {
  toolName?: string;
  toolInput?: Record<string, unknown>;
  toolResult?: ToolResult;
  hostContext?: { theme?: string; displayMode?: string; locale?: string; maxHeight?: number };
  callTool?: Record<string, ToolResult>;
  widgetState?: unknown;
}

interface ToolResult {
  content?: unknown[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  isError?: boolean;
}

interface NamedFixture {
  name: string;
  file: string;
  fixture: Fixture;
}

interface BuildEvent {
  seq: number;
  ok: boolean;
  durationMs: number;
  buildId?: string;
  widgets: WidgetInfo[] | null;
  diagnostics?: Diagnostic[];
  changed?: string[];
}

interface LogEntry {
  t: number;
  dir: "in" | "out" | "host" | "err";
  kind: string;
  data: unknown;
}

const cfg: PageConfig = JSON.parse(document.body.dataset.config || "{}");
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T | null;
const sandboxOrigin = new URL(cfg.sandboxUrl).origin;

// State exposed for debugging and for the browser tests.
const dev = ((window as any).widgetdDev = {
  log: [] as LogEntry[],
  violations: [] as any[],
  // Reports (CSP violations, uncaught errors) still being traced to their
  // source line by the server; widgetd test waits for none.
  pendingReports: 0,
  build: null as BuildEvent | null,
  mounts: 0,
  initialized: false,
  host: "mcp-apps",
  mountedHash: "",
  // The fixture rendered, the tools the widget called, and whether the
  // widget document loaded (widgetd test reads these).
  fixture: "",
  calls: [] as { name: string; arguments: unknown }[],
  loaded: false,
  probe: (_selectors: string[], _freeze?: boolean): Promise<ProbeResult> => Promise.reject(new Error("no widget mounted")),
});

// What the sandbox document's reporter script answers to a probe.
interface ProbeResult {
  text: string;
  found: boolean[];
  ready: boolean;
  height: number;
}

// ---------- build events, overlay, status ----------

function setStatus(text: string, bad = false) {
  const el = $("status");
  if (el) {
    el.textContent = text;
    el.classList.toggle("bad", bad);
  }
}

function showOverlay(diags: Diagnostic[] | undefined) {
  const ov = $("overlay");
  const txt = $("overlay-text");
  if (!ov || !txt) return;
  const errs = (diags || []).filter((d) => !d.warning);
  if (errs.length === 0) {
    ov.hidden = true;
    txt.textContent = "";
    return;
  }
  txt.textContent = errs.map((d) => d.text).join("\n\n");
  ov.hidden = false;
}

function connectEvents(onBuild: (ev: BuildEvent) => void) {
  const es = new EventSource(cfg.base + "/_widgetd/events");
  es.addEventListener("build", (e) => {
    let ev: BuildEvent;
    try {
      ev = JSON.parse((e as MessageEvent).data);
    } catch {
      return;
    }
    dev.build = ev;
    showOverlay(ev.ok ? [] : ev.diagnostics);
    setStatus(ev.ok ? `build #${ev.seq} ok in ${Math.round(ev.durationMs)} ms` : `build #${ev.seq} failed`, !ev.ok);
    onBuild(ev);
  });
  es.onerror = () => setStatus("dev server unreachable; retrying…", true);
}

// ---------- index page ----------

function indexPage() {
  connectEvents((ev) => {
    const ul = $("widgets");
    if (!ul || !ev.widgets) return;
    ul.textContent = "";
    for (const w of ev.widgets) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `${cfg.base}/preview/${encodeURIComponent(w.name)}`;
      a.textContent = w.name;
      const title = document.createElement("span");
      title.className = "muted";
      title.textContent = " " + (w.title || "") + " ";
      const uri = document.createElement("code");
      uri.className = "muted";
      uri.textContent = w.uri;
      li.append(a, title, uri);
      // Each fixture opens the preview on it.
      const fixtures = document.createElement("span");
      fixtures.className = "fixtures";
      for (const f of w.fixtures || []) {
        const fa = document.createElement("a");
        fa.href = `${cfg.base}/preview/${encodeURIComponent(w.name)}?fixture=${encodeURIComponent(f.name)}`;
        fa.textContent = f.name;
        fa.title = f.file;
        fixtures.append(" ", fa);
      }
      if (w.fixtureError) fixtures.append(" ", w.fixtureError);
      if (fixtures.childNodes.length) li.append(" · fixtures:", fixtures);
      ul.append(li);
    }
  });
}

// ---------- preview page ----------

type Json = Record<string, unknown>;

interface Editor {
  el: HTMLTextAreaElement;
  err: HTMLElement;
  value: Json;
  valid: boolean;
}

function editor(id: string, initial: unknown): Editor {
  const el = $<HTMLTextAreaElement>(id)!;
  const err = $(id + "-err")!;
  const ed: Editor = { el, err, value: {}, valid: true };
  el.value = JSON.stringify(initial ?? {}, null, 2);
  const check = () => {
    try {
      const v = JSON.parse(el.value.trim() === "" ? "{}" : el.value);
      if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("must be a JSON object");
      ed.value = v;
      ed.valid = true;
      err.textContent = "";
    } catch (e) {
      ed.valid = false;
      err.textContent = (e as Error).message;
    }
    el.classList.toggle("invalid", !ed.valid);
    updateApply();
  };
  el.addEventListener("input", check);
  (ed as any).check = check;
  check();
  return ed;
}

let editors: Record<string, Editor> = {};

function updateApply() {
  const b = $<HTMLButtonElement>("apply");
  if (b) b.disabled = Object.values(editors).some((e) => !e.valid);
}

function logEntry(dir: LogEntry["dir"], kind: string, data?: unknown) {
  let copy: unknown = null;
  try {
    copy = data === undefined ? null : JSON.parse(JSON.stringify(data));
  } catch {
    copy = String(data);
  }
  const entry: LogEntry = { t: Date.now(), dir, kind, data: copy };
  dev.log.push(entry);
  const ol = $("log");
  if (!ol) return;
  const li = document.createElement("li");
  li.className = dir;
  const arrow = dir === "in" ? "widget → host" : dir === "out" ? "host → widget" : dir === "err" ? "error" : "host";
  let text = JSON.stringify(copy);
  if (text && text.length > 600) text = text.slice(0, 600) + "…";
  li.textContent = `${new Date(entry.t).toISOString().slice(11, 23)} ${arrow} ${kind} ${text ?? ""}`;
  ol.append(li);
  ol.scrollTop = ol.scrollHeight;
}

// traced posts a report (CSP violation, uncaught error) to the server,
// which traces it to its source line through the build's source maps, and
// then logs it with the answer's source. dev.pendingReports counts the
// reports still on their way, so widgetd test can wait for none.
async function traced(kind: string, path: string, body: Record<string, unknown>): Promise<any> {
  dev.pendingReports++;
  let answer: any = null;
  try {
    const r = await fetch(cfg.base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (r.ok) answer = await r.json();
  } catch {
    /* logged with the bundle position */
  }
  logEntry("err", kind, answer?.source ? { ...body, source: answer.source } : body);
  dev.pendingReports--;
  return answer;
}

function describe(m: any): string {
  if (m && typeof m.method === "string") return m.id !== undefined ? `${m.method} #${m.id}` : m.method;
  if (m && m.id !== undefined) return m.error ? `error #${m.id}` : `result #${m.id}`;
  return "message";
}

function previewPage(name: string) {
  let widget: WidgetInfo | null = null;
  let iframe: HTMLIFrameElement | null = null;
  let bridge: AppBridge | null = null;
  let seededFrom = "";
  let fixture: Fixture = {};
  let fixtureName = "";
  let probeSeq = 0;
  const probes = new Map<number, (r: ProbeResult) => void>();
  const fixtureSel = $<HTMLSelectElement>("fixture")!;
  const hostSel = $<HTMLSelectElement>("host")!;
  const themeSel = $<HTMLSelectElement>("theme")!;
  const modeSel = $<HTMLSelectElement>("display-mode")!;
  const localeIn = $<HTMLInputElement>("locale")!;
  const maxHIn = $<HTMLInputElement>("max-height")!;
  const toolNameIn = $<HTMLInputElement>("tool-name")!;
  const forward = $<HTMLInputElement>("forward")!;
  const noCSP = $<HTMLInputElement>("no-csp")!;
  const stage = $("stage")!;
  const wrap = $("frame-wrap")!;
  const exitModeBtn = $<HTMLButtonElement>("exit-mode")!;
  const params = new URLSearchParams(location.search);
  // ?host= takes the four names and the old "mcp" (now mcp-apps).
  hostSel.value = hostProfile(params.get("host"), cfg.version).name;
  noCSP.checked = params.get("csp") === "none";
  $("no-csp-note")!.hidden = !noCSP.checked;
  for (const [key, el] of [["theme", themeSel], ["mode", modeSel]] as const) {
    const v = params.get(key);
    if (v) el.value = v;
  }
  $("mcp-url")!.textContent = cfg.mcp || "(start widgetd dev with --mcp URL)";
  forward.disabled = !cfg.mcp;
  forward.checked = !!cfg.mcp;

  editors = {
    input: editor("tool-input", {}),
    output: editor("tool-output", {}),
    meta: editor("tool-meta", {}),
    call: editor("call-response", { content: [{ type: "text", text: "ok" }], structuredContent: {} }),
  };

  // listFixtures fills the fixture menu; the ?fixture= parameter, then the
  // current choice, then the first fixture is selected.
  function listFixtures(w: WidgetInfo) {
    const list = w.fixtures || [];
    const want = fixtureSel.value || params.get("fixture") || "";
    fixtureSel.textContent = "";
    const none = document.createElement("option");
    none.value = "";
    none.textContent = list.length ? "(none)" : "(no fixtures)";
    fixtureSel.append(none);
    for (const f of list) {
      const o = document.createElement("option");
      o.value = f.name;
      o.textContent = f.name;
      o.title = f.file;
      fixtureSel.append(o);
    }
    const pick = list.find((f) => f.name === want) || (params.has("fixture") ? undefined : list[0]);
    fixtureSel.value = pick ? pick.name : "";
    if (w.fixtureError) logEntry("err", "fixtures", w.fixtureError);
    return pick;
  }

  function seed(nf: NamedFixture | undefined) {
    const key = JSON.stringify(nf ?? {});
    if (key === seededFrom) return;
    seededFrom = key;
    const s: Fixture = nf?.fixture ?? {};
    fixture = s;
    fixtureName = nf?.name ?? "";
    toolNameIn.value = s.toolName || widget?.tool || name;
    const set = (ed: Editor, v: unknown) => {
      ed.el.value = JSON.stringify(v ?? {}, null, 2);
      (ed as any).check();
    };
    set(editors.input, s.toolInput ?? {});
    set(editors.output, s.toolResult?.structuredContent ?? {});
    set(editors.meta, s.toolResult?._meta ?? {});
    set(editors.call, s.callTool?.["*"] ?? { content: [{ type: "text", text: "ok" }], structuredContent: {} });
    const hc = s.hostContext ?? {};
    if (hc.theme) themeSel.value = hc.theme;
    if (hc.displayMode) modeSel.value = hc.displayMode;
    if (hc.locale) localeIn.value = hc.locale;
    if (hc.maxHeight) maxHIn.value = String(hc.maxHeight);
  }

  const maxHeight = () => Math.max(50, Number(maxHIn.value) || 600);
  const mode = () => modeSel.value as McpUiDisplayMode;

  function hostContext(): McpUiHostContext {
    const profile = hostProfile(hostSel.value, cfg.version);
    return {
      theme: themeSel.value as "light" | "dark",
      styles: hostStyles(themeSel.value === "dark" ? "dark" : "light", profile.styles),
      platform: "web",
      displayMode: mode(),
      availableDisplayModes: profile.displayModes,
      containerDimensions: mode() === "fullscreen" ? { height: stage.clientHeight, width: stage.clientWidth } : { maxHeight: maxHeight(), width: wrap.clientWidth || 600 },
      locale: localeIn.value || "en-US",
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      userAgent: "widgetd-dev/" + cfg.version,
      deviceCapabilities: { hover: true, touch: false },
      safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
      toolInfo: { id: 1, tool: { name: toolNameIn.value || name, inputSchema: { type: "object" } } },
    } as McpUiHostContext;
  }

  // The last globals sent to the ChatGPT emulation, to send only changes.
  let sentGlobals: Json = {};
  function openaiGlobals(): Json {
    return {
      toolInput: editors.input.value,
      toolOutput: editors.output.value,
      toolResponseMetadata: editors.meta.value,
      widgetState: hmr.widgetState(name, fixture.widgetState ?? null),
      theme: themeSel.value,
      displayMode: mode(),
      maxHeight: maxHeight(),
      locale: localeIn.value || "en-US",
      safeArea: { insets: { top: 0, bottom: 0, left: 0, right: 0 } },
      view: { mode: mode() },
      userAgent: { device: { type: "desktop" }, capabilities: { hover: true, touch: false } },
    };
  }

  function toolResult() {
    const out = editors.output.value;
    const content = fixture.toolResult?.content ?? [{ type: "text", text: JSON.stringify(out) }];
    const res: Json = { content, structuredContent: out };
    if (fixture.toolResult?.isError) res.isError = true;
    if (Object.keys(editors.meta.value).length > 0) res._meta = editors.meta.value;
    return res;
  }

  function applyLayout() {
    stage.classList.remove("mode-inline", "mode-pip", "mode-fullscreen");
    stage.classList.add("mode-" + mode());
    exitModeBtn.hidden = mode() === "inline";
    exitModeBtn.textContent = mode() === "pip" ? "Exit picture-in-picture ✕" : "Exit fullscreen ✕";
    stage.classList.toggle("theme-dark", themeSel.value === "dark");
    wrap.classList.toggle("bordered", widget?.meta?.ui?.prefersBorder !== false);
  }

  function setHeight(h: unknown) {
    if (!iframe || typeof h !== "number" || !isFinite(h)) return;
    if (mode() === "fullscreen") return;
    iframe.style.height = Math.min(Math.max(h, 20), maxHeight()) + "px";
  }

  async function answerCall(nameArg: string, args: unknown): Promise<Json> {
    dev.calls.push({ name: String(nameArg), arguments: args ?? {} });
    if (cfg.mcp && forward.checked) {
      const r = await fetch(cfg.base + "/_widgetd/call-tool", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: nameArg, arguments: args ?? {} }),
      });
      const j = await r.json();
      if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
      return j;
    }
    const answer = fixture.callTool?.[String(nameArg)];
    if (answer) return answer as Json;
    if (!editors.call.valid) throw new Error("the callTool response in the preview is not valid JSON");
    return editors.call.value;
  }

  async function unmount() {
    const b = bridge;
    bridge = null;
    dev.initialized = false;
    if (b) {
      try {
        await Promise.race([b.teardownResource({}), new Promise((r) => setTimeout(r, 300))]);
      } catch {
        /* the old widget may be broken; it is removed anyway */
      }
      try {
        await b.close();
      } catch {
        /* ignore */
      }
    }
    iframe?.remove();
    iframe = null;
  }

  let mounting = Promise.resolve();
  function mount() {
    mounting = mounting.then(doMount, doMount);
    return mounting;
  }

  async function doMount() {
    await unmount();
    if (!widget) return;
    const w = widget;
    const profile = hostProfile(hostSel.value, cfg.version);
    const host = profile.name;
    dev.host = host;
    dev.mountedHash = w.hash;
    dev.mounts++;
    dev.fixture = fixtureName;
    dev.calls = [];
    dev.loaded = false;
    applyLayout();
    $("csp")!.textContent = w.csp;
    $("resource-meta")!.textContent = JSON.stringify(w.meta, null, 2);
    const f = document.createElement("iframe");
    f.id = "widget-frame";
    f.title = w.title || w.name;
    // The sandbox hosts use (mcp-apps.md §4.2/§6.1): scripts and same-origin
    // (its own sandbox origin), forms; never top navigation.
    f.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
    const allow = buildAllowAttribute(w.meta?.ui?.permissions);
    if (allow) f.setAttribute("allow", allow);
    f.style.height = "120px";
    f.addEventListener("load", () => {
      dev.loaded = true;
      hmr.frameLoaded(f, sandboxOrigin, w.name);
      hmr.noteMounted(cfg.base, w.name, w.hash);
    });
    iframe = f;
    wrap.append(f);
    let src = `${cfg.sandboxUrl}/widget/${encodeURIComponent(w.name)}?host=${host}&v=${w.hash}`;
    if (noCSP.checked) {
      src += "&csp=none";
      logEntry("host", "no CSP (as ChatGPT developer mode)", { hidden: w.csp });
    }
    if (profile.openai) {
      logEntry("host", "window.openai globals", openaiGlobals());
      sentGlobals = openaiGlobals();
      src += "#" + encodeURIComponent(JSON.stringify(openaiGlobals()));
    }
    if (!profile.ui) {
      f.src = src;
      return;
    }
    if (host === "claude") {
      const problem = claudeDomainProblem(w.meta?.ui?.domain);
      // A note, not an error: widgetd's assets handler sends Claude the hash
      // domain, so only a server bypassing it hits this.
      if (problem) logEntry("host", "ui.domain (Claude)", problem);
    }
    const b = new AppBridge(null, profile.hostInfo, profile.capabilities(w.meta?.ui?.csp, w.meta?.ui?.permissions), { hostContext: hostContext() });
    b.oncalltool = async (p) => {
      const res = await answerCall(p.name, p.arguments);
      return res as any;
    };
    b.onopenlink = async () => ({});
    b.onmessage = async () => ({});
    b.onupdatemodelcontext = async () => ({});
    b.ondownloadfile = async () => ({});
    b.onrequestdisplaymode = async (p) => {
      // A mode the host does not offer (Claude has no pip) is refused: the
      // answer names the mode in effect (mcp-apps.md §3).
      if (!profile.displayModes.includes(p.mode)) return { mode: mode() };
      modeSel.value = p.mode;
      applyLayout();
      b.setHostContext(hostContext());
      return { mode: p.mode };
    };
    b.onreadresource = async (p) => {
      throw new Error(`resources/read ${p.uri}: the preview has no MCP server resources`);
    };
    b.onsizechange = (p) => setHeight(p.height);
    b.onloggingmessage = () => {};
    b.onrequestteardown = () => {};
    b.oninitialized = () => {
      dev.initialized = true;
      b.sendToolInput({ arguments: editors.input.value });
      b.sendToolResult(toolResult() as any);
    };
    const transport = new PostMessageTransport(f.contentWindow!, f.contentWindow!);
    // Log every JSON-RPC message in both directions.
    const send = transport.send.bind(transport);
    transport.send = async (m: any, opts?: any) => {
      logEntry("out", describe(m), m);
      return send(m, opts);
    };
    await b.connect(transport);
    const inner = transport.onmessage!;
    transport.onmessage = (m: any, extra?: any) => {
      logEntry("in", describe(m), m);
      inner(m, extra);
    };
    bridge = b;
    // Connect first, then load: the WindowProxy stays the same across the
    // navigation, so the transport's source check keeps working.
    f.src = src;
  }

  function sendOpenAI(msg: Json) {
    iframe?.contentWindow?.postMessage(msg, sandboxOrigin);
  }

  // Host context controls update the running widget without a reload.
  function contextChanged() {
    applyLayout();
    const profile = hostProfile(hostSel.value, cfg.version);
    if (profile.ui && bridge && dev.initialized) {
      bridge.setHostContext(hostContext());
    }
    if (profile.openai) {
      // Like ChatGPT: only the globals that changed.
      const g = openaiGlobals();
      const next: Json = { theme: g.theme, displayMode: g.displayMode, maxHeight: g.maxHeight, locale: g.locale, view: g.view };
      const globals: Json = {};
      for (const k of Object.keys(next)) if (JSON.stringify(next[k]) !== JSON.stringify(sentGlobals[k])) globals[k] = next[k];
      sentGlobals = next;
      if (Object.keys(globals).length === 0) return;
      logEntry("out", "openai:set_globals", globals);
      sendOpenAI({ widgetd: "openai-set", globals });
    }
  }
  for (const el of [themeSel, modeSel, localeIn, maxHIn]) el.addEventListener("change", contextChanged);
  // The way back from fullscreen and pip, as hosts give one: the button over
  // the widget and Escape (while focus is in the page, not in the widget's
  // frame) return to inline and tell the widget, as the select does.
  function leaveMode() {
    if (mode() === "inline") return;
    modeSel.value = "inline";
    contextChanged();
  }
  exitModeBtn.addEventListener("click", leaveMode);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !e.defaultPrevented) leaveMode();
  });
  hostSel.addEventListener("change", () => {
    const u = new URL(location.href);
    u.searchParams.set("host", hostSel.value);
    history.replaceState(null, "", u);
    mount();
  });
  noCSP.addEventListener("change", () => {
    const u = new URL(location.href);
    if (noCSP.checked) u.searchParams.set("csp", "none");
    else u.searchParams.delete("csp");
    $("no-csp-note")!.hidden = !noCSP.checked;
    history.replaceState(null, "", u);
    mount();
  });
  $("reload")!.addEventListener("click", () => mount());
  $("apply")!.addEventListener("click", () => mount());
  fixtureSel.addEventListener("change", () => {
    const u = new URL(location.href);
    u.searchParams.set("fixture", fixtureSel.value);
    history.replaceState(null, "", u);
    hmr.forget(name);
    seed(widget?.fixtures?.find((f) => f.name === fixtureSel.value));
    applyLayout();
    mount();
  });
  // probe asks the widget document which selectors match and what text it
  // shows (answered by the sandbox origin's reporter script); freeze also
  // stops its animations and transitions for a repeatable screenshot.
  dev.probe = (selectors: string[], freeze = false) =>
    new Promise<ProbeResult>((resolve, reject) => {
      const win = iframe?.contentWindow;
      if (!win) return reject(new Error("no widget mounted"));
      const id = ++probeSeq;
      probes.set(id, resolve);
      win.postMessage({ widgetd: "probe", id, selectors, freeze }, sandboxOrigin);
      setTimeout(() => probes.delete(id) && reject(new Error("the widget document did not answer the probe")), 2000);
    });
  $("clear-log")!.addEventListener("click", () => {
    dev.log.length = 0;
    $("log")!.textContent = "";
  });

  // ChatGPT window.openai calls, CSP violations and errors from the frame.
  window.addEventListener("message", async (e) => {
    if (!iframe || e.source !== iframe.contentWindow || e.origin !== sandboxOrigin) return;
    const d = e.data;
    if (!d || typeof d !== "object" || typeof d.widgetd !== "string") return;
    if (hmr.onFrameMessage(name, d)) return;
    if (d.widgetd === "csp") {
      reportViolation(d);
      return;
    }
    if (d.widgetd === "error") {
      reportError(d);
      return;
    }
    if (d.widgetd === "probe-result") {
      const done = probes.get(d.id);
      probes.delete(d.id);
      done?.({ text: String(d.text ?? ""), found: Array.isArray(d.found) ? d.found.map(Boolean) : [], ready: !!d.ready, height: Number(d.height) || 0 });
      return;
    }
    if (d.widgetd !== "openai") return;
    const method = String(d.method);
    const args = d.args;
    if (method === "height") {
      setHeight(args);
      return;
    }
    logEntry("in", "window.openai." + method, args);
    const reply = (result: unknown, error?: string) => {
      if (d.id === undefined) return;
      logEntry("out", `reply ${method}`, error ? { error } : result);
      sendOpenAI({ widgetd: "openai-reply", id: d.id, result, error });
    };
    try {
      switch (method) {
        case "callTool":
          reply(await answerCall(args?.name, args?.args));
          break;
        case "requestDisplayMode": {
          const m = args?.mode;
          if (m === "inline" || m === "pip" || m === "fullscreen") {
            modeSel.value = m;
            contextChanged();
          }
          reply({ mode: modeSel.value });
          break;
        }
        case "notifyIntrinsicHeight":
          setHeight(typeof args === "number" ? args : args?.height);
          break;
        case "uploadFile":
          reply({ fileId: "file_dev_1", fileName: args?.name, mimeType: args?.type });
          break;
        case "getFileDownloadUrl":
          reply({ downloadUrl: "about:blank#" + encodeURIComponent(String(args?.fileId)) });
          break;
        default:
          reply(null);
      }
    } catch (err) {
      reply(undefined, (err as Error).message);
    }
  });

  // reportError logs an uncaught error from the frame; the server traces
  // it to its source line.
  function reportError(d: any) {
    const body = { widget: name, message: String(d.message || ""), file: String(d.file || ""), line: Number(d.line) || 0, column: Number(d.column) || 0 };
    void traced("uncaught", "/_widgetd/error-report", body);
  }

  async function reportViolation(v: any) {
    const body = {
      widget: name,
      host: hostSel.value,
      directive: String(v.directive || ""),
      blockedURI: String(v.blockedURI || ""),
      sourceFile: String(v.sourceFile || ""),
      line: Number(v.line) || 0,
      column: Number(v.column) || 0,
      sample: String(v.sample || ""),
    };
    const advice: any = (await traced("CSP violation", "/_widgetd/csp-report", body)) ?? { ...body, message: `${body.directive} blocked ${body.blockedURI}` };
    const key = `${advice.directive}|${advice.origin || advice.blockedURI}`;
    if (dev.violations.some((x) => `${x.directive}|${x.origin || x.blockedURI}` === key)) return;
    dev.violations.push(advice);
    const li = document.createElement("li");
    li.className = "violation";
    const strong = document.createElement("strong");
    strong.textContent = advice.blockedURI;
    const msg = document.createElement("div");
    msg.textContent = advice.message;
    li.append(strong, msg);
    if (advice.source) {
      const at = document.createElement("code");
      at.className = "at";
      at.textContent = `${advice.source.file}:${advice.source.line}:${advice.source.column}  ${String(advice.source.text || "").trim()}`;
      li.append(at);
    }
    if (advice.field) {
      const fix = document.createElement("code");
      fix.className = "fix";
      fix.textContent = `${advice.configFile}: ${advice.field} += "${advice.origin}"`;
      li.append(fix);
    }
    $("violations")!.append(li);
  }

  // The hash of the last build a mount was queued for. dev.mountedHash
  // changes only once that mount runs (after the old widget's teardown), so
  // a second build with the same hash arriving meanwhile (an editor's save
  // can be seen twice) must be compared with this one, or it queues a
  // needless second reload.
  let queuedHash = "";
  connectEvents((ev) => {
    if (!ev.ok || !ev.widgets) return;
    const w = ev.widgets.find((x) => x.name === name) || null;
    if (!w) {
      widget = null;
      queuedHash = "";
      unmount();
      setStatus(`widget "${name}" is not in the current build`, true);
      return;
    }
    const first = widget === null;
    widget = w;
    seed(listFixtures(w));
    if (first || w.hash !== queuedHash) {
      if (!first) {
        dev.violations.length = 0;
        $("violations")!.textContent = "";
        logEntry("host", "reload", { hash: w.hash, build: ev.seq });
      }
      queuedHash = w.hash;
      if (first) mount();
      else update(w.hash, ev.changed ?? []);
    }
  });

  // update applies a new build to the mounted widget in place when it can
  // (hmr.ts: styles swapped, React Refresh), else reloads it.
  function update(hash: string, changed: string[]) {
    mounting = mounting.then(async () => {
      const how = await hmr.hotUpdate(iframe, sandboxOrigin, cfg.base, name, hash, changed);
      if (!how) return doMount();
      dev.mountedHash = hash;
      logEntry("host", "hot update", { how, hash });
    }, doMount);
  }
}

if (document.body.dataset.page === "preview" && cfg.widget) {
  previewPage(cfg.widget);
} else {
  indexPage();
}

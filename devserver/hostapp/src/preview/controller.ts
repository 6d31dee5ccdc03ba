// PreviewController renders one widget in a sandboxed iframe loaded from the
// sandbox origin (which serves it under its strict spec CSP, or none to
// emulate ChatGPT's developer mode) and plays the chosen host to it: the real
// AppBridge + PostMessageTransport from @modelcontextprotocol/ext-apps answers
// ui/* as a web MCP Apps host drives a View (mcp-apps.md §3, §4) on every host
// but chatgpt-legacy; window.openai, installed in the frame by the sandbox
// origin (chatgpt-apps.md §1), on both ChatGPT hosts, its calls arriving here
// by postMessage. Every message both ways is logged. The UI (ui/) only reads
// and sets its stores; the frame is the controller's alone.
import { AppBridge, PostMessageTransport, buildAllowAttribute } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { McpUiDisplayMode } from "@modelcontextprotocol/ext-apps/app-bridge";
import { hostProfile, claudeDomainProblem } from "../hosts";
import { dev, logEntry, describe, type ProbeResult } from "../devstate";
import { parseContentBlocks, parseJsonObject, pretty } from "../jsonparse";
import { Store } from "../store";
import { devicesOf, findDevice, type Device } from "../devices";
import type { BuildEvent, Fixture, Json, NamedFixture, PageConfig, WidgetInfo } from "../types";
import { buildHostContext, changedGlobals, contextGlobals, openaiGlobals, type FrameSize } from "./hostcontext";
import { defaultCallResponse, deviceSettings, isMode, type Settings, type Source, type ToolTexts } from "./settings";
import { clearViolations, reportError, reportViolation } from "./reports";
import { initialSettings, seedSettings } from "./seed";
import * as hmr from "../hmr";

/** PreviewState is what the UI shows of the widget: its build info and fixtures. */
export interface PreviewState {
  widget: WidgetInfo | null;
  fixtures: NamedFixture[];
  fixtureName: string;
  /** The widget is not in the current build. */
  missing: boolean;
  source: Source;
  /** The --mcp server's widget resource shown in source=server mode. */
  server: ServerResource | null;
}

/** ServerResource is GET /_widgetd/mcp/widget's answer: the server widget's _meta and the CSP the sandbox serves it with. */
export interface ServerResource {
  uri: string;
  mimeType?: string;
  _meta?: Record<string, any>;
  csp?: string;
  error?: string;
}

/** PreviewController drives the widget frame; see the file comment. */
export class PreviewController {
  readonly devices: Device[];
  readonly settings: Store<Settings>;
  readonly tool: Store<ToolTexts>;
  readonly state: Store<PreviewState>;
  private readonly sandboxOrigin: string;
  private readonly params = new URLSearchParams(location.search);
  private wrap: HTMLElement | null = null;
  private iframe: HTMLIFrameElement | null = null;
  private bridge: AppBridge | null = null;
  private fixture: Fixture = {};
  private seededFrom = "";
  private sentGlobals: Json = {};
  private mounting = Promise.resolve();
  // The hash of the last build a mount was queued for. dev.mountedHash
  // changes only once that mount runs (after the old widget's teardown), so
  // a second build with the same hash arriving meanwhile (an editor's save
  // can be seen twice) must be compared with this one, or it queues a
  // needless second reload.
  private queuedHash = "";
  private probeSeq = 0;
  private probes = new Map<number, (r: ProbeResult) => void>();

  constructor(readonly cfg: PageConfig, readonly name: string) {
    this.sandboxOrigin = new URL(cfg.sandboxUrl).origin;
    this.devices = devicesOf(cfg.devices);
    this.settings = new Store(initialSettings(cfg, this.params, this.devices));
    this.tool = new Store<ToolTexts>({ toolName: name, input: "{}", output: "{}", content: "", meta: "{}", call: pretty(defaultCallResponse) });
    const uri = this.params.get("uri");
    const source: Source = this.params.get("source") === "server" && uri ? { kind: "server", uri } : { kind: "local" };
    this.state = new Store<PreviewState>({ widget: null, fixtures: [], fixtureName: "", missing: false, source, server: null });
    dev.probe = (selectors, freeze = false) => this.probe(selectors, freeze);
    window.addEventListener("message", (e) => this.onFrameMessage(e));
  }

  /** attach gives the controller the element the widget frame lives in. */
  attach(wrap: HTMLElement | null) {
    this.wrap = wrap;
  }

  /** toolValid reports whether every tool editor holds a JSON object. */
  toolValid(): boolean {
    const t = this.tool.value;
    return [t.input, t.output, t.meta, t.call].every((s) => parseJsonObject(s).ok) && parseContentBlocks(t.content).ok;
  }

  private toolValues(): { input: Json; output: Json; meta: Json; call: Json | null } {
    const t = this.tool.value;
    const val = (s: string) => {
      const p = parseJsonObject(s);
      return p.ok ? p.value : null;
    };
    return { input: val(t.input) ?? {}, output: val(t.output) ?? {}, meta: val(t.meta) ?? {}, call: val(t.call) };
  }

  private profile() {
    return hostProfile(this.settings.value.host, this.cfg.version);
  }

  private frameSize(): FrameSize {
    return { width: this.wrap?.clientWidth || 600, viewportWidth: window.innerWidth, viewportHeight: window.innerHeight };
  }

  private hostContext() {
    return buildHostContext(this.settings.value, this.profile(), this.tool.value.toolName || this.name, this.frameSize(), this.cfg.version);
  }

  private allGlobals(): Json {
    return openaiGlobals(this.settings.value, this.toolValues(), hmr.widgetState(this.name, this.fixture.widgetState ?? null));
  }

  private toolResult(): Json {
    const { output, meta } = this.toolValues();
    const blocks = parseContentBlocks(this.tool.value.content);
    const content = (blocks.ok && blocks.value) || [{ type: "text", text: JSON.stringify(output) }];
    const res: Json = { content, structuredContent: output };
    if (this.fixture.toolResult?.isError) res.isError = true;
    if (Object.keys(meta).length > 0) res._meta = meta;
    return res;
  }

  // ---------- build events and fixtures ----------

  /** onBuild follows a build: the widget's new info, fixtures, and a reload when its hash changed. */
  onBuild(ev: BuildEvent) {
    if (!ev.ok || !ev.widgets) return;
    const w = ev.widgets.find((x) => x.name === this.name) || null;
    if (!w) {
      this.queuedHash = "";
      this.state.set({ widget: null, missing: true });
      if (this.state.value.source.kind === "server") this.mountOnce("server");
      else void this.unmountQueued();
      return;
    }
    const first = this.state.value.widget === null;
    this.state.set({ widget: w, missing: false });
    this.seed(this.listFixtures(w));
    if (first || w.hash !== this.queuedHash) {
      if (!first) {
        clearViolations();
        logEntry("host", "reload", { hash: w.hash, build: ev.seq });
      }
      this.queuedHash = w.hash;
      if (first || this.state.value.source.kind === "server") this.mount();
      else this.update(w.hash, ev.changed ?? []);
    }
  }

  // update applies a new build to the mounted widget in place when it can
  // (hmr.ts: styles swapped, React Refresh), else reloads it.
  private update(hash: string, changed: string[]) {
    const reload = () => this.doMount();
    this.mounting = this.mounting.then(async () => {
      const how = await hmr.hotUpdate(this.iframe, this.sandboxOrigin, this.cfg.base, this.name, hash, changed);
      if (!how) return reload();
      dev.mountedHash = hash;
      logEntry("host", "hot update", { how, hash });
    }, reload);
  }

  private mountOnce(hash: string) {
    if (this.queuedHash === hash) return;
    this.queuedHash = hash;
    this.mount();
  }

  // listFixtures lists the widget's fixtures; the ?fixture= parameter, then
  // the current choice, then the first fixture is selected.
  private listFixtures(w: WidgetInfo): NamedFixture | undefined {
    const list = w.fixtures || [];
    const want = this.state.value.fixtureName || this.params.get("fixture") || "";
    const pick = list.find((f) => f.name === want) || (this.params.has("fixture") ? undefined : list[0]);
    this.state.set({ fixtures: list, fixtureName: pick ? pick.name : "" });
    if (w.fixtureError) logEntry("err", "fixtures", w.fixtureError);
    return pick;
  }

  private seed(nf: NamedFixture | undefined) {
    const key = JSON.stringify(nf ?? {});
    if (key === this.seededFrom) return;
    this.seededFrom = key;
    const s: Fixture = nf?.fixture ?? {};
    this.fixture = s;
    this.tool.set({
      toolName: s.toolName || this.state.value.widget?.tool || this.name,
      input: pretty(s.toolInput ?? {}),
      output: pretty(s.toolResult?.structuredContent ?? {}),
      content: contentText(s.toolResult?.content),
      meta: pretty(s.toolResult?._meta ?? {}),
      call: pretty(s.callTool?.["*"] ?? defaultCallResponse),
    });
    const patch = seedSettings(s.hostContext, this.devices);
    if (Object.keys(patch).length) this.settings.set(patch);
  }

  /** selectFixture switches to a fixture ("" for none) and reloads the widget. */
  selectFixture(name: string) {
    this.replaceQuery("fixture", name);
    this.state.set({ fixtureName: name });
    hmr.forget(this.name);
    this.seed(this.state.value.fixtures.find((f) => f.name === name));
    this.mount();
  }

  // ---------- controls ----------

  private replaceQuery(key: string, value: string | null) {
    const u = new URL(location.href);
    if (value === null) u.searchParams.delete(key);
    else u.searchParams.set(key, value);
    history.replaceState(null, "", u);
  }

  /** selectHost reloads the widget under another host. */
  selectHost(host: string) {
    const name = hostProfile(host, this.cfg.version).name;
    this.replaceQuery("host", name);
    this.settings.set({ host: name });
    this.mount();
  }

  /** setNoCSP turns "no CSP (as ChatGPT developer mode)" on or off and reloads. */
  setNoCSP(on: boolean) {
    this.replaceQuery("csp", on ? "none" : null);
    this.settings.set({ noCSP: on });
    this.mount();
  }

  /** setContext changes host-context settings; the running widget is told without a reload. */
  setContext(patch: Partial<Settings>) {
    this.settings.set(patch);
    this.contextChanged();
  }

  /** selectDevice applies a device preset's platform, capabilities and insets. */
  selectDevice(id: string) {
    this.replaceQuery("device", id);
    this.setContext(deviceSettings(findDevice(this.devices, id)));
  }

  /** setMode changes the display mode, as the menu, the exit button and Escape do. */
  setMode(mode: McpUiDisplayMode) {
    if (this.settings.value.mode === mode) return;
    this.setContext({ mode });
  }

  /** leaveMode returns from fullscreen or pip to inline (the exit button, Escape). */
  leaveMode() {
    this.setMode("inline");
  }

  /** setTool changes the tool editors' texts (sent on Apply). */
  setTool(patch: Partial<ToolTexts>) {
    this.tool.set(patch);
  }

  /**
   * showCallResult shows a --mcp tool call as a host would after it: the
   * arguments become the tool input and the result the tool result of the
   * tool's widget, the server's own resource uri when the tool names one,
   * else the local widget of the tool's name (or linked to the tool). It
   * answers the widget shown, "" when the tool has none here.
   */
  showCallResult(toolName: string, args: Json, result: any, uri: string): string {
    const w = this.state.value.widget;
    const local = !uri && (toolName === this.name || (!!w && w.tool === toolName));
    if (!uri && !local) return "";
    this.fixture = { toolResult: { isError: result?.isError || undefined } };
    this.tool.set({ toolName, input: pretty(args), output: pretty(result?.structuredContent ?? {}), content: contentText(result?.content), meta: pretty(result?._meta ?? {}) });
    this.setSource(uri ? { kind: "server", uri } : { kind: "local" });
    this.mount();
    return uri || this.name;
  }

  // setSource switches between the local build and a server resource (the
  // page's query says which, so a reload keeps it).
  private setSource(source: Source) {
    this.replaceQuery("source", source.kind === "server" ? "server" : null);
    this.replaceQuery("uri", source.kind === "server" ? source.uri : null);
    this.state.set({ source });
  }

  /** useLocalSource goes back to the widget from the local build. */
  useLocalSource() {
    this.setSource({ kind: "local" });
    this.mount();
  }

  // ---------- the frame ----------

  private setHeight(h: unknown) {
    if (!this.iframe || typeof h !== "number" || !isFinite(h)) return;
    if (this.settings.value.mode === "fullscreen") return;
    this.iframe.style.height = Math.min(Math.max(h, 20), this.settings.value.maxHeight) + "px";
  }

  private async answerCall(nameArg: string, args: unknown): Promise<Json> {
    dev.calls.push({ name: String(nameArg), arguments: args ?? {} });
    if (this.cfg.mcp && this.settings.value.forward) {
      const r = await fetch(this.cfg.base + "/_widgetd/call-tool", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: nameArg, arguments: args ?? {} }),
      });
      const j = await r.json();
      if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
      return j;
    }
    const answer = this.fixture.callTool?.[String(nameArg)];
    if (answer) return answer as Json;
    const call = this.toolValues().call;
    if (!call) throw new Error("the callTool response in the preview is not valid JSON");
    return call;
  }

  private async unmount() {
    const b = this.bridge;
    this.bridge = null;
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
    this.iframe?.remove();
    this.iframe = null;
  }

  private unmountQueued() {
    this.mounting = this.mounting.then(() => this.unmount());
    return this.mounting;
  }

  /** mount (re)loads the widget frame, after any mount already queued. */
  mount() {
    const run = () => this.doMount();
    this.mounting = this.mounting.then(run, run);
    return this.mounting;
  }

  /** shown is the widget being shown: the local build's, or the server's resource (its _meta and CSP once read). */
  shown(): WidgetInfo | null {
    const st = this.state.value;
    if (st.source.kind === "server") {
      const sv = st.server?.uri === st.source.uri && !st.server.error ? st.server : null;
      return { name: this.name, title: st.widget?.title || st.source.uri, hash: "server", csp: sv?.csp ?? "", uri: st.source.uri, meta: sv?._meta ?? {} };
    }
    return st.widget;
  }

  // loadServerResource reads the server widget's _meta and CSP, which the
  // frame's permissions, the host's capabilities and the panels use.
  private async loadServerResource(uri: string) {
    let server: ServerResource;
    try {
      const r = await fetch(`${this.cfg.base}/_widgetd/mcp/widget?uri=${encodeURIComponent(uri)}`);
      const j = await r.json();
      server = r.ok ? j : { uri, error: j.error || `HTTP ${r.status}` };
    } catch (e) {
      server = { uri, error: (e as Error).message };
    }
    if (server.error) logEntry("err", "server widget", server.error);
    this.state.set({ server });
  }

  private frameSrc(w: WidgetInfo, host: string): string {
    const st = this.state.value;
    let src = st.source.kind === "server"
      ? `${this.cfg.sandboxUrl}/_widgetd/server-widget?uri=${encodeURIComponent(st.source.uri)}&host=${host}`
      : `${this.cfg.sandboxUrl}/widget/${encodeURIComponent(w.name)}?host=${host}&v=${w.hash}`;
    if (this.settings.value.noCSP) {
      src += "&csp=none";
      logEntry("host", "no CSP (as ChatGPT developer mode)", { hidden: w.csp });
    }
    return src;
  }

  private createFrame(w: WidgetInfo): HTMLIFrameElement {
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
      hmr.frameLoaded(f, this.sandboxOrigin, w.name);
      if (this.state.value.source.kind === "local") hmr.noteMounted(this.cfg.base, w.name, w.hash);
    });
    return f;
  }

  private async doMount() {
    await this.unmount();
    const source = this.state.value.source;
    if (source.kind === "server") await this.loadServerResource(source.uri);
    const w = this.shown();
    if (!w || !this.wrap) return;
    const profile = this.profile();
    const host = profile.name;
    dev.host = host;
    dev.mountedHash = w.hash;
    dev.mounts++;
    dev.fixture = this.state.value.fixtureName;
    dev.calls = [];
    dev.loaded = false;
    const f = this.createFrame(w);
    this.iframe = f;
    this.wrap.append(f);
    let src = this.frameSrc(w, host);
    if (profile.openai) {
      this.sentGlobals = this.allGlobals();
      logEntry("host", "window.openai globals", this.sentGlobals);
      src += "#" + encodeURIComponent(JSON.stringify(this.sentGlobals));
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
    const b = this.createBridge(w);
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
    this.bridge = b;
    // Connect first, then load: the WindowProxy stays the same across the
    // navigation, so the transport's source check keeps working.
    f.src = src;
  }

  private createBridge(w: WidgetInfo): AppBridge {
    const profile = this.profile();
    const b = new AppBridge(null, profile.hostInfo, profile.capabilities(w.meta?.ui?.csp, w.meta?.ui?.permissions), { hostContext: this.hostContext() });
    b.oncalltool = async (p) => (await this.answerCall(p.name, p.arguments)) as any;
    b.onopenlink = async () => ({});
    b.onmessage = async () => ({});
    b.onupdatemodelcontext = async () => ({});
    b.ondownloadfile = async () => ({});
    b.onrequestdisplaymode = async (p) => {
      // A mode the host does not offer (Claude has no pip) is refused: the
      // answer names the mode in effect (mcp-apps.md §3).
      if (!profile.displayModes.includes(p.mode)) return { mode: this.settings.value.mode };
      this.setMode(p.mode);
      return { mode: p.mode };
    };
    b.onreadresource = async (p) => {
      throw new Error(`resources/read ${p.uri}: the preview has no MCP server resources`);
    };
    b.onsizechange = (p) => this.setHeight(p.height);
    b.onloggingmessage = () => {};
    b.onrequestteardown = () => {};
    b.oninitialized = () => {
      dev.initialized = true;
      b.sendToolInput({ arguments: this.toolValues().input });
      b.sendToolResult(this.toolResult() as any);
    };
    return b;
  }

  private sendOpenAI(msg: Json) {
    this.iframe?.contentWindow?.postMessage(msg, this.sandboxOrigin);
  }

  /** contextChanged tells the running widget its new host context (ui/* and/or window.openai). */
  contextChanged() {
    const profile = this.profile();
    if (profile.ui && this.bridge && dev.initialized) this.bridge.setHostContext(this.hostContext());
    if (!profile.openai) return;
    // Like ChatGPT: only the globals that changed.
    const next = contextGlobals(this.settings.value);
    const globals = changedGlobals(next, this.sentGlobals);
    this.sentGlobals = { ...this.sentGlobals, ...next };
    if (Object.keys(globals).length === 0) return;
    logEntry("out", "openai:set_globals", globals);
    this.sendOpenAI({ widgetd: "openai-set", globals });
  }

  // probe asks the widget document which selectors match and what text it
  // shows (answered by the sandbox origin's reporter script); freeze also
  // stops its animations and transitions for a repeatable screenshot, and
  // is answered once the document has painted twice.
  private probe(selectors: string[], freeze: boolean): Promise<ProbeResult> {
    return new Promise<ProbeResult>((resolve, reject) => {
      const win = this.iframe?.contentWindow;
      if (!win) return reject(new Error("no widget mounted"));
      const id = ++this.probeSeq;
      this.probes.set(id, resolve);
      win.postMessage({ widgetd: "probe", id, selectors, freeze }, this.sandboxOrigin);
      setTimeout(() => this.probes.delete(id) && reject(new Error("the widget document did not answer the probe")), 2000);
    });
  }

  // ChatGPT window.openai calls, CSP violations, errors and Escape from the frame.
  private async onFrameMessage(e: MessageEvent) {
    if (!this.iframe || e.source !== this.iframe.contentWindow || e.origin !== this.sandboxOrigin) return;
    const d = e.data;
    if (!d || typeof d !== "object" || typeof d.widgetd !== "string") return;
    if (hmr.onFrameMessage(this.name, d)) return;
    switch (d.widgetd) {
      case "csp":
        void reportViolation(this.cfg.base, this.name, this.settings.value.host, d);
        return;
      case "error":
        reportError(this.cfg.base, this.name, d);
        return;
      case "escape":
        // Escape in the widget that the widget did not take.
        this.leaveMode();
        return;
      case "probe-result": {
        const done = this.probes.get(d.id);
        this.probes.delete(d.id);
        done?.({
          text: String(d.text ?? ""),
          found: Array.isArray(d.found) ? d.found.map(Boolean) : [],
          ready: !!d.ready,
          height: Number(d.height) || 0,
          viewportWidth: Number(d.viewportWidth) || 0,
          viewportHeight: Number(d.viewportHeight) || 0,
          look: String(d.look ?? ""),
        });
        return;
      }
      case "openai":
        await this.onOpenAICall(d);
    }
  }

  private async onOpenAICall(d: any) {
    const method = String(d.method);
    const args = d.args;
    if (method === "height") {
      this.setHeight(args);
      return;
    }
    logEntry("in", "window.openai." + method, args);
    const reply = (result: unknown, error?: string) => {
      if (d.id === undefined) return;
      logEntry("out", `reply ${method}`, error ? { error } : result);
      this.sendOpenAI({ widgetd: "openai-reply", id: d.id, result, error });
    };
    try {
      switch (method) {
        case "callTool":
          reply(await this.answerCall(args?.name, args?.args));
          break;
        case "requestDisplayMode":
          if (isMode(args?.mode)) this.setMode(args.mode);
          reply({ mode: this.settings.value.mode });
          break;
        case "notifyIntrinsicHeight":
          this.setHeight(typeof args === "number" ? args : args?.height);
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
  }
}

/**
 * contentText is a result's content blocks as the content editor shows them:
 * "" when the result has none (the editor's default), "[]" for an empty list,
 * which is then sent as it is.
 */
function contentText(content: unknown): string {
  return Array.isArray(content) ? pretty(content) : "";
}

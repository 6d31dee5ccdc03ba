// A small App-like class, written the way a framework ships its own copy of
// ext-apps' App (sunpeak bundles one): nothing here comes from
// @modelcontextprotocol/ext-apps, so only what the code does (it posts
// ui/initialize to window.parent) tells widgetd to put its App adapter in
// front of this module. It speaks the MCP Apps protocol for what the matrix
// exercises: the handshake, tool input and result, host context, tools/call.
type Message = { jsonrpc: "2.0"; id?: number; method?: string; params?: any; result?: any; error?: { code?: number; message: string } };
type Pending = { resolve: (result: any) => void; reject: (error: Error) => void };

export class VendoredApp {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private hostContext: Record<string, any> = {};
  ontoolinput?: (params: { arguments?: Record<string, unknown> }) => void;
  ontoolresult?: (result: { structuredContent?: unknown }) => void;
  onhostcontextchanged?: (context: Record<string, any>) => void;

  constructor(private readonly appInfo: { name: string; version: string }) {}

  /** Does the handshake with the host that window.parent names. */
  async connect(): Promise<void> {
    window.addEventListener("message", (event) => {
      if (event.source === window.parent) this.receive(event.data);
    });
    const result = await this.request({
      method: "ui/initialize",
      params: { appInfo: this.appInfo, appCapabilities: {}, protocolVersion: "2026-01-26" },
    });
    this.hostContext = result.hostContext ?? {};
    this.post({ method: "ui/notifications/initialized", params: {} });
  }

  getHostContext(): Record<string, any> {
    return this.hostContext;
  }

  callServerTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<any> {
    return this.request({ method: "tools/call", params });
  }

  private request(message: { method: string; params: unknown }): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ id, ...message });
    });
  }

  private post(message: Omit<Message, "jsonrpc">) {
    window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  private receive(message: Message) {
    if (message?.jsonrpc !== "2.0") return;
    const { id, method, params } = message;
    if (method === undefined) {
      const pending = id === undefined ? undefined : this.pending.get(id);
      this.pending.delete(id!);
      if (message.error) pending?.reject(new Error(message.error.message));
      else pending?.resolve(message.result);
    } else if (method === "ui/notifications/tool-input") this.ontoolinput?.(params);
    else if (method === "ui/notifications/tool-result") this.ontoolresult?.(params);
    else if (method === "ui/notifications/host-context-changed") {
      this.hostContext = { ...this.hostContext, ...params };
      this.onhostcontextchanged?.(params);
    } else if (method === "ping" && id !== undefined) this.post({ id, result: {} });
    else if (id !== undefined) this.post({ id, error: { code: -32601, message: "Method not found: " + method } });
  }
}

// Type declarations for the widgetd bridge ("widgetd") and its React hooks
// ("widgetd/react"). widgetd writes this file into widget projects so editors
// complete the API. Full documentation: docs/bridge.md.
declare module "widgetd" {
  /** Which host the widget runs in. */
  export type Host = "chatgpt" | "mcp-apps" | "standalone";
  /** "modal" is ChatGPT's, host-driven (requestModal in "widgetd/chatgpt"); never sent over ui/*. */
  export type DisplayMode = "inline" | "fullscreen" | "pip" | "modal";
  /** Features testable with widget.supports(). */
  export type Feature =
    | "callTool" | "sendMessage" | "openLink" | "requestDisplayMode" | "requestClose"
    | "updateModelContext" | "state" | "readResource" | "log" | "downloadFile";
  /** Why a call failed: unsupported by this host, no host at all, no answer in time, or the host refused. */
  export type ErrorCode = "unsupported" | "no-host" | "timeout" | "host";
  /** The only error type the bridge throws or rejects with. */
  export class WidgetdError extends Error {
    constructor(code: ErrorCode, feature: string, message: string, data?: unknown);
    code: ErrorCode;
    /** The feature or JSON-RPC method involved. */
    feature: string;
    /** The host's JSON-RPC error or isError result, when code is "host". */
    data?: unknown;
  }
  export interface ContentBlock { type: string; text?: string; [k: string]: unknown }
  export interface CallToolResult {
    content: ContentBlock[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    _meta?: Record<string, unknown>;
  }
  /** MCP Apps McpUiHostContext (ChatGPT globals are mapped onto it). */
  export interface HostContext {
    theme?: "light" | "dark";
    displayMode?: DisplayMode;
    availableDisplayModes?: DisplayMode[];
    locale?: string;
    timeZone?: string;
    platform?: "web" | "desktop" | "mobile";
    userAgent?: string;
    containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
    /** Older hosts' name for the container's size limits. */
    viewport?: { width?: number; height?: number; maxHeight?: number; maxWidth?: number };
    safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
    deviceCapabilities?: { touch?: boolean; hover?: boolean };
    styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
    toolInfo?: { id?: string | number; tool: { name: string; [k: string]: unknown } };
    [k: string]: unknown;
  }
  export interface Config {
    /** Request timeout in ms (default 30000); a tool call's restarts at every progress notification from the host. */
    timeout: number;
    /** Report the document size to the host (default true). */
    autoResize: boolean;
    /** Debounce of size reports in ms (default 50). */
    resizeDebounce: number;
    /** Apply host theme, style variables and fonts (default true). */
    theming: boolean;
    /** In a widget that bundles an ext-apps App (or other code doing its own handshake): wait this long for that handshake before starting our own, in ms (default 300). */
    adoptWait: number;
    appInfo: { name: string; version: string };
    /** Modes the widget is designed for beyond "inline" (default none); appCapabilities.availableDisplayModes is "inline" plus these ("modal" aside). */
    displayModes: DisplayMode[];
  }
  type Unsubscribe = () => void;
  /**
   * The server's tools by name, each `{ input; output }`. Empty here;
   * `widgetd types --mcp URL` or `--from ./cmd/server` adds every tool that
   * shows a widget (in widgets/<name>/tools.gen.d.ts), which types
   * callTool(name, args) and the hooks' name argument.
   */
  export interface Tools {}
  /** The name of a tool `widgetd types` generated types for. */
  export type ToolName = keyof Tools & string;
  /** The arguments of tool N (its inputSchema). */
  export type ToolInput<N extends ToolName> = Tools[N] extends { input: infer I } ? I : never;
  /** The structuredContent of tool N (its outputSchema). */
  export type ToolOutput<N extends ToolName> = Tools[N] extends { output: infer O } ? O : never;
  /** callTool's argument list for tool N: optional when every input property is. */
  export type ToolArgs<N extends ToolName> = {} extends ToolInput<N> ? [args?: ToolInput<N>] : [args: ToolInput<N>];
  /** Per-call options of callTool. */
  export interface CallToolOptions {
    /** ms without an answer (or a progress notification) before the call rejects with "timeout". */
    timeout?: number;
  }
  /** The result of calling tool N, its structuredContent typed. */
  export type ToolResult<N extends ToolName> = Omit<CallToolResult, "structuredContent"> & { structuredContent?: ToolOutput<N> };
  export const widget: {
    readonly host: Host;
    readonly hostInfo: { name: string; version?: string } | undefined;
    readonly hostCapabilities: Record<string, unknown>;
    readonly toolInput: Record<string, unknown> | undefined;
    readonly toolOutput: Record<string, unknown> | undefined;
    /** Widget-only _meta of the tool result. */
    readonly toolMeta: Record<string, unknown> | undefined;
    readonly toolResult: CallToolResult | undefined;
    /** Same object until the context changes. */
    readonly hostContext: HostContext;
    /** Restored synchronously at import (never null for a saved state). */
    readonly state: any;
    /** Resolves once the host session exists (MCP Apps); immediately elsewhere. */
    ready(): Promise<void>;
    /** Change tunables; call before first use (autoResize may be toggled any time). */
    configure(c: Partial<Config>): void;
    supports(feature: Feature): boolean;
    /** Called at once with the latest input if one already arrived. */
    onToolInput(cb: (args: Record<string, unknown>) => void): Unsubscribe;
    onToolInputPartial(cb: (args: Record<string, unknown>) => void): Unsubscribe;
    /** Called at once with the latest result if one already arrived. */
    onToolResult(cb: (result: CallToolResult) => void): Unsubscribe;
    onToolCancelled(cb: (p: { reason?: string }) => void): Unsubscribe;
    onHostContextChanged(cb: (ctx: HostContext) => void): Unsubscribe;
    onStateChanged(cb: (state: any) => void): Unsubscribe;
    /** The host answers ui/resource-teardown after returned promises settle. */
    onTeardown(cb: (p: Record<string, unknown>) => void | Promise<void>): Unsubscribe;
    /**
     * Typed when `widgetd types` generated the tool's types. Over ui/* it
     * sends _meta.progressToken; options.timeout (ms, default
     * config.timeout) restarts at every notifications/progress.
     */
    callTool<N extends ToolName>(name: N, ...args: [...ToolArgs<N>, options?: CallToolOptions]): Promise<ToolResult<N>>;
    /** Any other tool (a generated tool's name must match its types). */
    callTool<S extends string>(name: S & (S extends ToolName ? never : unknown), args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
    /** Over ui/message; scrollToBottom only matters on window.openai. */
    sendMessage(text: string | ContentBlock[], options?: { scrollToBottom?: boolean }): Promise<unknown>;
    /** redirectUrl is passed to window.openai.openExternal (false: no ?redirectUrl= appended); ui/open-link has no such field. */
    openLink(url: string, options?: { redirectUrl?: string | false }): Promise<unknown>;
    requestDisplayMode(mode: DisplayMode): Promise<DisplayMode>;
    /** window.openai.requestClose() where it exists, else ui/notifications/request-teardown. */
    requestClose(): Promise<void>;
    /** On window.openai without ui/*: setState({...state, modelContent}) (OpenAI's documented fallback). */
    updateModelContext(p: { content?: ContentBlock[]; structuredContent?: Record<string, unknown> }): Promise<unknown>;
    readResource(uri: string): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>;
    downloadFile(contents: Record<string, unknown>[]): Promise<unknown>;
    getState(): any;
    setState(state: any): Promise<void>;
    log(level: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency", data: unknown): void;
    /** Send one size report now (height in px, or measured). */
    notifySize(height?: number): void;
  };
  export default widget;
}

declare module "widgetd/react" {
  import type { CallToolResult, DisplayMode, HostContext, ToolArgs, ToolInput, ToolName, ToolOutput, ToolResult } from "widgetd";
  /** The tool name only picks the type (generated by `widgetd types`); the value is the rendering call's. */
  export function useToolInput<N extends ToolName>(tool: N): ToolInput<N> | undefined;
  export function useToolInput<T = Record<string, unknown>>(): T | undefined;
  /** The tool name only picks the type (generated by `widgetd types`); the value is the rendering call's. */
  export function useToolOutput<N extends ToolName>(tool: N): ToolOutput<N> | undefined;
  export function useToolOutput<T = Record<string, unknown>>(): T | undefined;
  export function useToolResult(): CallToolResult | undefined;
  export function useHostContext(): HostContext;
  export function useTheme(): "light" | "dark" | undefined;
  export function useDisplayMode(): [DisplayMode | undefined, (m: DisplayMode) => Promise<DisplayMode>];
  export function useWidgetState<T>(initial: T): [T, (s: T | ((prev: T) => T)) => void];
  /** Registers a view tool while the component is mounted. */
  export function useViewTool<A = Record<string, unknown>>(name: string, config: import("widgetd/tools").ViewToolConfig, handler: import("widgetd/tools").ViewToolHandler<A>): void;
  export function useCallTool<N extends ToolName>(name: N): {
    call: (...args: ToolArgs<N>) => Promise<ToolResult<N> | undefined>;
    data: ToolResult<N> | undefined;
    error: Error | undefined;
    loading: boolean;
  };
  export function useCallTool<R = CallToolResult>(name: string): {
    call: (args?: Record<string, unknown>) => Promise<R | undefined>;
    data: R | undefined;
    error: Error | undefined;
    loading: boolean;
  };
}

declare module "widgetd/tools" {
  import type { CallToolResult } from "widgetd";
  /** How a view tool describes itself in tools/list. */
  export interface ViewToolConfig {
    title?: string;
    description?: string;
    /** JSON Schema of the arguments (default: any object). */
    inputSchema?: Record<string, unknown>;
    outputSchema?: Record<string, unknown>;
    annotations?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  }
  /** What a view tool returns. */
  export type ViewToolResult = CallToolResult;
  /** Runs a view tool with the host's arguments. */
  export type ViewToolHandler<A = Record<string, unknown>> = (args: A) => ViewToolResult | Promise<ViewToolResult>;
  /** Registers (or replaces) a tool the host can list and call; returns its removal. Register while the widget loads. */
  export function registerTool<A = Record<string, unknown>>(name: string, config: ViewToolConfig, handler: ViewToolHandler<A>): () => void;
  /** The names of the registered view tools. */
  export function registeredTools(): string[];
}

declare module "widgetd/chatgpt" {
  import type { DisplayMode } from "widgetd";
  /** A file the user picked or the widget uploaded. */
  export interface FileRef { fileId: string; fileName?: string; mimeType?: string }
  /** ChatGPT's view global: the display mode and, in a modal, its params. */
  export interface View { mode: DisplayMode; params?: Record<string, unknown> }
  export interface ModalOptions {
    params?: Record<string, unknown>;
    /** A registered template URI; omit it for the current template. */
    template?: string;
    title?: string;
    anchor?: { top?: number; left?: number; width?: number; height?: number };
  }
  export type Extra =
    | "selectFiles" | "uploadFile" | "getFileDownloadUrl" | "requestModal" | "requestClose"
    | "setOpenInAppUrl" | "requestCheckout" | "sendFollowUpMessage";
  /** Whether the host offers an extra. Every call below rejects with WidgetdError "unsupported" when it does not. */
  export function has(extra: Extra): boolean;
  export function selectFiles(): Promise<FileRef[]>;
  export function uploadFile(file: File, options?: { library?: boolean }): Promise<FileRef>;
  export function getFileDownloadUrl(fileId: string): Promise<{ downloadUrl: string }>;
  export function requestModal(options?: ModalOptions): Promise<void>;
  export function requestClose(): Promise<void>;
  export function setOpenInAppUrl(href: string): Promise<void>;
  export function requestCheckout<O = Record<string, unknown>>(session: Record<string, unknown>): Promise<O>;
  export function sendFollowUpMessage(prompt: string, options?: { scrollToBottom?: boolean }): Promise<void>;
  export function view(): View | undefined;
}

declare module "widgetd/mcp" {
  /** Options of every request: its timeout in ms (default config.timeout). */
  export interface RequestOptions { timeout?: number }
  /** A page of a list request: pass the last result's nextCursor for the next page. */
  export interface PageParams { cursor?: string }
  /** One page of a list result, as MCP defines it. */
  export type ListResult<K extends string, T> = { [key in K]: T[] } & { nextCursor?: string; _meta?: Record<string, unknown> };
  /** An item of a list result: the fields MCP defines, and any a server adds. */
  export interface Listed { name: string; title?: string; description?: string; _meta?: Record<string, unknown>; [k: string]: unknown }
  /** A sampling/createMessage request (MCP CreateMessageRequest params). */
  export interface SamplingParams {
    messages: Array<{ role: "user" | "assistant"; content: unknown }>;
    maxTokens: number;
    systemPrompt?: string;
    temperature?: number;
    stopSequences?: string[];
    modelPreferences?: Record<string, unknown>;
    includeContext?: "none" | "thisServer" | "allServers";
    metadata?: Record<string, unknown>;
    /** Tools the model may use: only where hostCapabilities.sampling.tools is set. */
    tools?: Array<Record<string, unknown>>;
    toolChoice?: Record<string, unknown>;
    [k: string]: unknown;
  }
  /** A sampling/createMessage result (MCP CreateMessageResult). */
  export interface SamplingResult { role: "assistant"; content: unknown; model: string; stopReason?: string; [k: string]: unknown }
  /** tools/list through the host; rejects "unsupported" unless hostCapabilities.serverTools. */
  export function listTools(params?: PageParams, options?: RequestOptions): Promise<ListResult<"tools", Listed & { inputSchema: Record<string, unknown> }>>;
  /** resources/list through the host; rejects "unsupported" unless hostCapabilities.serverResources. */
  export function listResources(params?: PageParams, options?: RequestOptions): Promise<ListResult<"resources", Listed & { uri: string; mimeType?: string }>>;
  /** resources/templates/list through the host; rejects "unsupported" unless hostCapabilities.serverResources. */
  export function listResourceTemplates(params?: PageParams, options?: RequestOptions): Promise<ListResult<"resourceTemplates", Listed & { uriTemplate: string; mimeType?: string }>>;
  /** prompts/list through the host (no capability names it); rejects "unsupported" without ui/* or when the host lacks the method. */
  export function listPrompts(params?: PageParams, options?: RequestOptions): Promise<ListResult<"prompts", Listed & { arguments?: Array<Record<string, unknown>> }>>;
  /** sampling/createMessage through the host; rejects "unsupported" unless hostCapabilities.sampling. */
  export function createSamplingMessage(params: SamplingParams, options?: RequestOptions): Promise<SamplingResult>;
}

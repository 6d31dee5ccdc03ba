// widgetd/mcp: MCP requests a widget sends through the host (widget → host
// listing of the server's tools, resources, resource templates and prompts,
// and sampling from the host's model), as ext-apps' App sends them. Only
// bundled when a widget imports "widgetd/mcp". Each request goes over ui/*
// only where the host's capabilities say it may: tools/list needs
// hostCapabilities.serverTools, resources/list and resources/templates/list
// serverResources, sampling/createMessage sampling. The spec names no host
// capability for prompts, so prompts/list goes to every ui/* host, and a host
// without it (JSON-RPC "Method not found") rejects it as unsupported too.
// Elsewhere each call rejects with WidgetdError "unsupported" (or "no-host").
import { WidgetdError } from "./errors";
import { request, sessionUp, widget } from "./index";

// The exported types below are declared again, for widget authors, in
// widgetd.d.ts (module "widgetd/mcp"), which `widgetd types` copies into
// widget projects: change both. TestDeclarationsMatchBridge (bundler/bridge)
// fails when the declarations promise what these sources lack.
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

const unsupported = (method: string) => new WidgetdError("unsupported", method, "not supported by this host (" + widget.host + ")");

/** Sends method over ui/* when the session exists and offers capability (any ui/* host when capability is empty). */
function send(capability: string, method: string, params?: object, options?: RequestOptions): Promise<any> {
  if (widget.host == "standalone") return Promise.reject(new WidgetdError("no-host", method, "no host: the page was opened directly"));
  return widget.ready().then(() => {
    if (!sessionUp() || (capability && !widget.hostCapabilities[capability])) throw unsupported(method);
    return request(method, params as Record<string, unknown>, options?.timeout).catch((e) => {
      throw (e.data as any)?.code == -32601 ? unsupported(method) : e;
    });
  });
}

/** Lists the server's tools (tools/list; needs hostCapabilities.serverTools). */
export const listTools = (params?: PageParams, options?: RequestOptions): Promise<ListResult<"tools", Listed & { inputSchema: Record<string, unknown> }>> =>
  send("serverTools", "tools/list", params, options);
/** Lists the server's resources (resources/list; needs hostCapabilities.serverResources). */
export const listResources = (params?: PageParams, options?: RequestOptions): Promise<ListResult<"resources", Listed & { uri: string; mimeType?: string }>> =>
  send("serverResources", "resources/list", params, options);
/** Lists the server's resource templates (resources/templates/list; needs hostCapabilities.serverResources). */
export const listResourceTemplates = (params?: PageParams, options?: RequestOptions): Promise<ListResult<"resourceTemplates", Listed & { uriTemplate: string; mimeType?: string }>> =>
  send("serverResources", "resources/templates/list", params, options);
/** Lists the server's prompts (prompts/list; any ui/* host that answers it). */
export const listPrompts = (params?: PageParams, options?: RequestOptions): Promise<ListResult<"prompts", Listed & { arguments?: Array<Record<string, unknown>> }>> =>
  send("", "prompts/list", params, options);
/** Asks the host's model for a completion (sampling/createMessage; needs hostCapabilities.sampling). */
export const createSamplingMessage = (params: SamplingParams, options?: RequestOptions): Promise<SamplingResult> =>
  send("sampling", "sampling/createMessage", params, options);

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
// The public types, declared once for widget authors and for this module in
// widgetd.d.ts (module "widgetd/mcp").
import type { ListResult, Listed, PageParams, RequestOptions, SamplingParams, SamplingResult } from "widgetd/mcp";

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

// widgetd/tools: view tools, tools the widget registers for the host to list
// and call (tools/list and tools/call from host to view, as ext-apps' App
// implements them). Only bundled when a widget imports "widgetd/tools".
// A widget that bundles registerTool declares appCapabilities.tools in
// ui/initialize, so tools registered after the handshake (in a React effect,
// after a fetch) are listed too, announced by notifications/tools/list_changed.
import { appCapabilities, notify, viewHandlers } from "./index";
// The public types, declared once for widget authors and for this module in
// widgetd.d.ts (module "widgetd/tools").
import type { ViewToolConfig, ViewToolHandler } from "widgetd/tools";

/**
 * The registered view tools, made by install() when this module runs: the
 * bridge's handshake goes out once the widget's modules ran, perhaps before
 * a tool registered in an effect exists, and ui/initialize must already
 * declare appCapabilities.tools. The call is marked pure, so esbuild drops it
 * from widgets that bundle neither registerTool nor registeredTools.
 */
const tools = /* @__PURE__ */ install();

function install() {
  appCapabilities.tools = { listChanged: true };
  viewHandlers["tools/list"] = () => ({
    tools: [...tools].map(([name, [c]]) => ({ name, ...c, inputSchema: c.inputSchema || { type: "object" } })),
  });
  viewHandlers["tools/call"] = (p) => {
    const t = tools.get(p.name);
    if (!t) throw new Error("unknown view tool: " + p.name);
    return t[1](p.arguments || {});
  };
  return new Map<string, [ViewToolConfig, ViewToolHandler<any>]>();
}

/** Registers (or replaces) a view tool; returns a function that removes it. */
export function registerTool<A = Record<string, unknown>>(name: string, config: ViewToolConfig, handler: ViewToolHandler<A>): () => void {
  tools.set(name, [config, handler]);
  notify("notifications/tools/list_changed");
  return () => {
    if (tools.get(name)?.[1] === handler && tools.delete(name)) notify("notifications/tools/list_changed");
  };
}

/** The names of the registered view tools. */
export function registeredTools(): string[] {
  return [...tools.keys()];
}

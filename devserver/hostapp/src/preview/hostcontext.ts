// What the widget is told about its host: the MCP Apps host context
// (mcp-apps.md §3.4) and, on the ChatGPT hosts, the window.openai globals
// (chatgpt-apps.md §1) — both built from the same settings.
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import { hostStyles } from "../styles";
import type { HostProfile } from "../hosts";
import type { Json } from "../types";
import type { Settings } from "./settings";

/** FrameSize is the room the widget has: the frame's width and the viewport for fullscreen. */
export interface FrameSize {
  width: number;
  viewportWidth: number;
  viewportHeight: number;
}

/** userAgent names the preview as the host's user agent. */
export function userAgent(version: string): string {
  return "widgetd-dev/" + version;
}

/** buildHostContext is the ui/initialize and host-context-changed hostContext. */
export function buildHostContext(s: Settings, profile: HostProfile, toolName: string, size: FrameSize, version: string): McpUiHostContext {
  const containerDimensions = s.mode === "fullscreen" ? { height: size.viewportHeight, width: size.viewportWidth } : inlineContainer(s, size);
  return {
    theme: s.theme,
    styles: hostStyles(s.theme, profile.styles),
    platform: s.platform,
    displayMode: s.mode,
    availableDisplayModes: profile.displayModes,
    containerDimensions,
    locale: s.locale || "en-US",
    timeZone: s.timeZone,
    userAgent: s.userAgent || userAgent(version),
    deviceCapabilities: { hover: s.hover, touch: s.touch },
    safeAreaInsets: { ...s.insets },
    toolInfo: { id: 1, tool: { name: toolName, inputSchema: { type: "object" } } },
  } as McpUiHostContext;
}

/** inlineContainer is the inline (and pip) containerDimensions: the max height control and the frame's width, unless a fixture fixes them (containerDimensions is {height}|{maxHeight} and {width}|{maxWidth}). */
function inlineContainer(s: Settings, size: FrameSize): Record<string, number> {
  const fixed = s.container ?? {};
  const vertical: Record<string, number> = fixed.height ? { height: fixed.height } : { maxHeight: s.maxHeight };
  const horizontal: Record<string, number> = fixed.maxWidth ? { maxWidth: fixed.maxWidth } : { width: fixed.width || size.width || 600 };
  return { ...vertical, ...horizontal };
}

/** deviceType is window.openai's userAgent.device.type for a platform. */
function deviceType(s: Settings): string {
  if (s.platform === "mobile") return s.deviceId === "tablet" ? "tablet" : "mobile";
  return "desktop";
}

/** contextGlobals are the window.openai globals that follow the settings. */
export function contextGlobals(s: Settings): Json {
  return {
    theme: s.theme,
    displayMode: s.mode,
    maxHeight: s.maxHeight,
    locale: s.locale || "en-US",
    safeArea: { insets: { ...s.insets } },
    view: { mode: s.mode },
    userAgent: { device: { type: deviceType(s) }, capabilities: { hover: s.hover, touch: s.touch } },
  };
}

/** openaiGlobals are all of window.openai's globals at load. */
export function openaiGlobals(s: Settings, tool: { input: Json; output: Json; meta: Json }, widgetState: unknown): Json {
  return { toolInput: tool.input, toolOutput: tool.output, toolResponseMetadata: tool.meta, widgetState: widgetState ?? null, ...contextGlobals(s) };
}

/** changedGlobals returns the globals of next that differ from sent (ChatGPT sends only those). */
export function changedGlobals(next: Json, sent: Json): Json {
  const out: Json = {};
  for (const k of Object.keys(next)) if (JSON.stringify(next[k]) !== JSON.stringify(sent[k])) out[k] = next[k];
  return out;
}

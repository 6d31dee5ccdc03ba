// The preview's settings: what the controls set and the host context is
// built from, and the tool call the widget is given.
import type { McpUiDisplayMode } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { HostName } from "../hosts";
import type { Device, Platform } from "../devices";
import type { Insets } from "../types";

/** Theme is the host theme; the whole page follows it. */
export type Theme = "light" | "dark";

/** Settings are the host, host-context and frame controls. */
export interface Settings {
  host: HostName;
  theme: Theme;
  mode: McpUiDisplayMode;
  locale: string;
  timeZone: string;
  maxHeight: number;
  deviceId: string;
  platform: Platform;
  touch: boolean;
  hover: boolean;
  insets: Insets;
  /** Load the widget without its CSP (as ChatGPT's developer mode). */
  noCSP: boolean;
  /** Forward the widget's tool calls to the --mcp server. */
  forward: boolean;
  /** The host's userAgent a fixture names; the preview's own when absent. */
  userAgent?: string;
  /** Fixed container dimensions a fixture names (no control sets them). */
  container?: FixedContainer;
}

/** FixedContainer is a fixture's containerDimensions beyond maxHeight: a fixed height, a fixed width or a maxWidth. */
export interface FixedContainer {
  height?: number;
  width?: number;
  maxWidth?: number;
}

/** ToolTexts are the tool call editors' texts (JSON objects as typed). */
export interface ToolTexts {
  toolName: string;
  input: string;
  output: string;
  /** content is the result's content blocks as JSON, "" for one text block of the output. */
  content: string;
  meta: string;
  call: string;
}

/** Source says where the widget document comes from: the local build or the --mcp server. */
export type Source = { kind: "local" } | { kind: "server"; uri: string };

/** defaultCallResponse answers a widget's tool call when no fixture does. */
export const defaultCallResponse = { content: [{ type: "text", text: "ok" }], structuredContent: {} };

/** deviceSettings are the settings a device preset sets. */
export function deviceSettings(d: Device): Partial<Settings> {
  return { deviceId: d.id, platform: d.platform, touch: d.deviceCapabilities.touch, hover: d.deviceCapabilities.hover, insets: { ...d.safeAreaInsets } };
}

/** isMode reports whether v is a display mode. */
export function isMode(v: unknown): v is McpUiDisplayMode {
  return v === "inline" || v === "pip" || v === "fullscreen";
}

// The shapes the dev server sends the host app: the page config (body
// data-config, devserver.pageConfig), build events (SSE, devserver.BuildEvent)
// and fixtures (fixture.schema.json, fixture.Fixture).
import type { Device } from "./devices";

/** PageConfig is devserver.pageConfig: what the page's data-config holds. */
export interface PageConfig {
  base: string;
  widget?: string;
  sandboxUrl: string;
  mcp?: string;
  version: string;
  /** Device presets built in Go (fixture/devices.go); absent before it. */
  devices?: Device[];
}

/** Diagnostic is one build error or warning with its file:line:col text. */
export interface Diagnostic {
  file: string;
  line?: number;
  column?: number;
  message: string;
  warning?: boolean;
  text: string;
}

/** WidgetInfo is one built widget as a build event lists it. */
export interface WidgetInfo {
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

/** HostContextFixture is a fixture's hostContext (the MCP Apps field names). */
export interface HostContextFixture {
  theme?: string;
  displayMode?: string;
  locale?: string;
  timeZone?: string;
  maxHeight?: number;
  platform?: string;
  device?: string;
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: Partial<Insets>;
  containerDimensions?: { maxHeight?: number; height?: number; width?: number; maxWidth?: number };
  userAgent?: string;
}

/** Fixture is one fixture file (fixture.schema.json), as fixture.Fixture marshals it. */
export interface Fixture {
  toolName?: string;
  toolInput?: Record<string, unknown>;
  toolResult?: ToolResult;
  hostContext?: HostContextFixture;
  callTool?: Record<string, ToolResult>;
  widgetState?: unknown;
}

/** ToolResult is a CallToolResult as fixtures and the server give it. */
export interface ToolResult {
  content?: unknown[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  isError?: boolean;
}

/** NamedFixture is a fixture with its name and file. */
export interface NamedFixture {
  name: string;
  file: string;
  fixture: Fixture;
}

/** BuildEvent is one dev server build (the SSE "build" event). */
export interface BuildEvent {
  seq: number;
  ok: boolean;
  durationMs: number;
  buildId?: string;
  widgets: WidgetInfo[] | null;
  diagnostics?: Diagnostic[];
  /** The project files this build saw changed (the edit loop swaps styles in place when only CSS did). */
  changed?: string[];
}

/** Insets are safe-area insets in CSS pixels. */
export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Json is a JSON object. */
export type Json = Record<string, unknown>;

/** readConfig parses the page's data-config. */
export function readConfig(): PageConfig {
  return JSON.parse(document.body.dataset.config || "{}");
}

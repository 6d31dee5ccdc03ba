// A fixture's hostContext (fixture.schema.json; devserver/hostcontext.go)
// applied to what the preview sends the widget. devserver.LoadFixtures has
// already expanded its device preset (platform, deviceCapabilities,
// safeAreaInsets), so the fields here are final: the AppBridge gets them
// under their MCP Apps names, window.openai as ChatGPT names them
// (chatgpt-apps.md §1: safeArea.insets, userAgent.device.type and
// .capabilities). Theme, display mode, locale and max height have controls
// in the preview, which the fixture seeds; the fields below have none, so
// the fixture's value wins.
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";

export interface FixtureHostContext {
  device?: string;
  theme?: string;
  displayMode?: string;
  locale?: string;
  timeZone?: string;
  platform?: "web" | "desktop" | "mobile";
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
  userAgent?: string;
  maxHeight?: number;
}

/** withFixtureContext is base with the fixture's fields that have no preview control. */
export function withFixtureContext(base: McpUiHostContext, fx?: FixtureHostContext): McpUiHostContext {
  if (!fx) return base;
  const out: any = { ...base };
  if (fx.timeZone) out.timeZone = fx.timeZone;
  if (fx.platform) out.platform = fx.platform;
  if (fx.userAgent) out.userAgent = fx.userAgent;
  if (fx.deviceCapabilities) out.deviceCapabilities = { ...base.deviceCapabilities, ...fx.deviceCapabilities };
  if (fx.safeAreaInsets) out.safeAreaInsets = { ...fx.safeAreaInsets };
  const cd = fx.containerDimensions;
  if (cd && base.displayMode !== "fullscreen") {
    const dims: any = { ...(base.containerDimensions ?? {}) };
    if (cd.height) {
      delete dims.maxHeight;
      dims.height = cd.height;
    }
    if (cd.width) {
      delete dims.maxWidth;
      dims.width = cd.width;
    }
    if (cd.maxWidth) {
      delete dims.width;
      dims.maxWidth = cd.maxWidth;
    }
    out.containerDimensions = dims;
  }
  return out as McpUiHostContext;
}

/** openaiDevice is window.openai's safeArea and userAgent for a fixture's host context. */
export function openaiDevice(fx?: FixtureHostContext) {
  const caps = { hover: true, touch: false, ...(fx?.deviceCapabilities ?? {}) };
  const type = fx?.device === "tablet" ? "tablet" : fx?.platform === "mobile" ? "mobile" : "desktop";
  const insets = fx?.safeAreaInsets ?? { top: 0, right: 0, bottom: 0, left: 0 };
  return {
    safeArea: { insets: { top: insets.top, bottom: insets.bottom, left: insets.left, right: insets.right } },
    userAgent: { device: { type }, capabilities: caps },
  };
}

// Pieces every bridge level shares (the full bridge in index.ts, the App
// adapter's window.openai stand-in in openaihost.ts, the handshake core in
// core.ts): reading ChatGPT's window.openai globals and theming the document
// from an MCP Apps host context. Written like index.ts (names for readers,
// `==` where both sides are strings).

/** A JSON object from the host or the widget. */
type JSONObject = Record<string, any>;

/**
 * How long a host with window.openai gets to answer ui/initialize before the
 * widget goes on over window.openai alone, in ms. A host that speaks ui/*
 * answers within milliseconds; a later answer still opens the session.
 */
export const PROBE_WAIT = 200;
/** The MCP Apps protocol version every level asks for in ui/initialize. */
export const PROTOCOL_VERSION = "2026-01-26";

/** Maps window.openai globals onto hostContext names. */
export function contextFromOpenai(globals: JSONObject) {
  const device = globals.userAgent?.device?.type;
  return {
    theme: globals.theme, displayMode: globals.displayMode, locale: globals.locale,
    containerDimensions: globals.maxHeight ? { maxHeight: globals.maxHeight } : undefined,
    safeAreaInsets: globals.safeArea?.insets,
    deviceCapabilities: globals.userAgent?.capabilities,
    platform: device == "mobile" || device == "tablet" ? "mobile" : device == "desktop" ? "desktop" : "web",
    view: globals.view,
  };
}
/** The CallToolResult that window.openai globals describe (undefined before one arrived). */
export function toolResultFromOpenai(globals: JSONObject) {
  const meta = globals.toolResponseMetadata;
  // == null: ChatGPT sets absent globals to null or leaves them undefined.
  return globals.toolOutput == null && meta == null ? undefined
    : meta?.mcp_tool_result || meta?.call_tool_result || { content: [], structuredContent: globals.toolOutput ?? undefined, _meta: meta ?? undefined };
}

/**
 * Applies a host context's theme, style variables and fonts to the document;
 * applied are the variables the last call set (removed when gone), and it
 * returns the ones it set.
 */
export function themeDocument(context: JSONObject, applied: string[]): string[] {
  const doc = document, root = doc.documentElement, rootStyle = root.style, theme = context.theme, styles = context.styles || {}, variables = styles.variables || {}, fonts = styles.css?.fonts;
  if (theme) { root.setAttribute("data-theme", theme); rootStyle.colorScheme = theme; }
  // == null: a variable that is absent or null is removed.
  applied.forEach((name) => variables[name] == null && rootStyle.removeProperty(name));
  applied = Object.keys(variables).filter((name) => variables[name] != null);
  applied.forEach((name) => rootStyle.setProperty(name, variables[name]));
  if (fonts) {
    let fontStyle = doc.getElementById("widgetd-fonts");
    if (!fontStyle) { fontStyle = doc.createElement("style"); fontStyle.id = "widgetd-fonts"; doc.head.append(fontStyle); }
    fontStyle.textContent = fonts;
  }
  return applied;
}

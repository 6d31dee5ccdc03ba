// The preview's "server source": with `widgetd dev --mcp URL`, the page
// /preview/<name>?source=server&uri=<ui://…> renders the widget the MCP
// server itself serves (its resources/read answer, through the sandbox
// origin's /_widgetd/server-widget, under the CSP of that resource's _meta
// and with the same dev scripts as a local widget) instead of the local
// build. The widget's tools/call then go to the server, as with the
// "Forward to MCP server" box. Small functions only: main.ts calls them.

/** The ui:// URI the page asks to render from the server, or "". */
export function serverWidgetURI(search: string = location.search): string {
  const q = new URLSearchParams(search);
  return q.get("source") === "server" ? q.get("uri") || "" : "";
}

/**
 * The frame URL of the server's widget on the sandbox origin for a host,
 * or "" when the page renders the local build (no source=server, or no
 * --mcp server to read from).
 */
export function serverWidgetSrc(sandboxUrl: string, host: string, hasServer: boolean, search: string = location.search): string {
  const uri = serverWidgetURI(search);
  if (!uri || !hasServer) return "";
  return `${sandboxUrl}/_widgetd/server-widget?uri=${encodeURIComponent(uri)}&host=${encodeURIComponent(host)}`;
}

/**
 * What the preview renders for /preview/<name>?source=server&uri=… when the
 * local build has no widget <name> (a server widget with no local source):
 * a stand-in for the build's widget entry, or null when the page does not
 * render from a server. Its hash never changes, so rebuilds of the local
 * widgets do not reload it.
 */
export function serverOnlyWidget(name: string, hasServer: boolean, search: string = location.search) {
  const uri = serverWidgetURI(search);
  if (!uri || !hasServer) return null;
  return { name, title: uri, hash: "server", csp: "(built by the sandbox from the server's resource _meta)", uri, meta: {} as Record<string, any> };
}

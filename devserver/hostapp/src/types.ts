// The shapes the dev server sends the host app: the page config (body
// data-config, devserver.pageConfig), build events (SSE, devserver.BuildEvent)
// and fixtures (fixture.schema.json, fixture.Fixture). They are generated
// from the Go structs into gen/wire.ts (go generate ./devserver); this module
// re-exports them under the names the preview uses.
import type { HostContext, PageConfig, SafeAreaInsets } from "./gen/wire";

export type { BuildEvent, Device, Diagnostic, Fixture, NamedFixture, PageConfig, ToolResult, WidgetInfo } from "./gen/wire";

/** HostContextFixture is a fixture's hostContext (the MCP Apps field names). */
export type HostContextFixture = HostContext;

/** Insets are safe-area insets in CSS pixels. */
export type Insets = SafeAreaInsets;

/** Json is a JSON object. */
export type Json = Record<string, unknown>;

/** readConfig parses the page's data-config. */
export function readConfig(): PageConfig {
  return JSON.parse(document.body.dataset.config || "{}");
}

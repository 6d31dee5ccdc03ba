// Package bridge owns the unified client bridge that widgetd injects ahead of
// every widget's code: its TypeScript source (compiled by esbuild during each
// build, never at run time), the .d.ts that gives widget authors completion,
// and the optional React hooks. It depends on no npm package.
package bridge

import "embed"

// Source holds the bridge's TypeScript sources under src/.
//
//go:embed src
var Source embed.FS

// Module paths inside Source.
const (
	// Entry is the module behind `import … from "widgetd"`. Importing it
	// installs the bridge (host detection, window.openai polyfill on MCP Apps
	// hosts) without starting a handshake until the widget or a polyfilled
	// window.openai call needs one.
	Entry = "src/index.ts"
	// ReactEntry is the module behind `import … from "widgetd/react"`.
	ReactEntry = "src/react.ts"
	// ToolsEntry is the module behind `import … from "widgetd/tools"`
	// (view tools the host lists and calls).
	ToolsEntry = "src/tools.ts"
	// ChatGPTEntry is the module behind `import … from "widgetd/chatgpt"`
	// (ChatGPT's window.openai extras, feature-detected).
	ChatGPTEntry = "src/chatgpt.ts"
	// MCPEntry is the module behind `import … from "widgetd/mcp"` (widget →
	// host listing and sampling, gated on the host's capabilities).
	MCPEntry = "src/mcp.ts"
	// AppAdapterEntry is the module widgetd puts ahead of the ext-apps App
	// class in widgets that import it: on a ChatGPT host that has
	// window.openai but no ui/*, it answers the App over window.openai.
	AppAdapterEntry = "src/appadapter.ts"
	// AppAdapterLiteEntry is the App adapter over window.openai alone, put
	// in AppAdapterEntry's place in a widget at bridge level "app" or
	// "core" (code that uses neither the widgetd API nor window.openai).
	AppAdapterLiteEntry = "src/appadapterlite.ts"
	// CoreEntry is the handshake core, the whole bridge of a widget at
	// level "core": ui/initialize, initialized, theming and size reports,
	// with AppAdapterLiteEntry for window.openai-only hosts.
	CoreEntry = "src/core.ts"
	// Types is the declaration file for every module widget code imports
	// ("widgetd", "widgetd/react" and each Submodule but the App adapter),
	// written into widget projects so editors complete the API. It is the
	// one declaration of the bridge's public types: the sources import them
	// from it.
	Types = "src/widgetd.d.ts"
)

// ModuleName is the bare import specifier widget code uses for the bridge.
const ModuleName = "widgetd"

// ReactModuleName is the bare import specifier of the React hooks.
const ReactModuleName = "widgetd/react"

// AppAdapterModuleName is the specifier of the App adapter (internal; the
// bundler imports it, widgets need not).
const AppAdapterModuleName = "widgetd/app-adapter"

// CoreModuleName is the specifier of the handshake core (internal: the
// bundler's generated entry imports it at bridge level "core").
const CoreModuleName = "widgetd/handshake-core"

// Submodule returns the path in Source of an optional, tree-shaken bridge
// module that imports nothing outside the bridge ("widgetd/tools",
// "widgetd/chatgpt", "widgetd/mcp"), and whether spec names one.
func Submodule(spec string) (string, bool) {
	switch spec {
	case "widgetd/tools":
		return ToolsEntry, true
	case "widgetd/chatgpt":
		return ChatGPTEntry, true
	case "widgetd/mcp":
		return MCPEntry, true
	case AppAdapterModuleName:
		return AppAdapterEntry, true
	case CoreModuleName:
		return CoreEntry, true
	}
	return "", false
}

// DTS returns the bridge's TypeScript declarations.
func DTS() ([]byte, error) { return Source.ReadFile(Types) }

// Package devserver owns `widgetd dev`: it watches widget sources, configs and
// HTML entries, rebuilds them in memory through one bundler.Builder (one
// esbuild context, incremental rebuilds, no compression, dist/ never
// written), and serves a local preview of every widget.
//
// The preview renders each widget the way a host does: in a sandboxed iframe
// on a separate loopback origin (the sandbox origin) whose response carries
// the widget's strict spec CSP header exactly as cspgen builds it, never
// loosened. The preview page (the preview origin) drives the widget either
// as an MCP Apps host, with the real AppBridge and PostMessageTransport from
// @modelcontextprotocol/ext-apps (bundled into hostapp.js, committed and
// embedded, rebuilt by `go generate`), or as ChatGPT, with window.openai
// injected into the widget frame. Open previews reload over Server-Sent
// Events after each rebuild, build errors show as an overlay, and every CSP
// violation in the widget frame is reported, in the page and the terminal,
// with the widget.json field that would allow it.
package devserver

// hostapp/src/gen/wire.ts (the preview's TypeScript of the JSON above) is
// generated from the Go structs by TestWireTypes, which also fails when the
// committed file is stale.
//go:generate go test -count=1 -run ^TestWireTypes$ . -args -update
//go:generate go run ./internal/genhost

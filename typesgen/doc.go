// Package typesgen turns the JSON Schemas of an MCP server's tools (their
// inputSchema and outputSchema, JSON Schema 2020-12 as go-sdk's jsonschema
// package emits them) into TypeScript declarations for the widgets those tools
// show, so `widget.callTool("name", …)` and `useToolOutput("name")` are typed
// from the Go structs the server declares. `widgetd types --mcp/--from` writes
// them and `widgetd check --types` tells when they are stale.
//
// The generator (Generate, Convert) is dependency-free Go: no Node.js, no
// schema library. Listing the tools of a server (List) uses the official
// go-sdk client, over streamable HTTP or over the standard input and output
// of a server package built with the Go toolchain (see gosdk.ServeTypes).
package typesgen

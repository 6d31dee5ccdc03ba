// Package assets owns the runtime side of a widgetd build: the dist/manifest.json
// types, Load (read and verify a dist/ from any fs.FS, including an embed.FS),
// the immutable Registry built from it, the CDN-origin http.Handler that serves
// the hashed, precompressed files, and the MCP pieces a server needs: the
// resources/list entries and resources/read contents of every widget under both
// profiles (text/html;profile=mcp-app and text/html+skybridge), with both
// metadata shapes (_meta.ui.* and openai/*), tailored per requesting host, and
// the tool _meta that links a tool to its widget.
//
// The package deliberately depends on nothing but the standard library: a Go
// MCP server that embeds dist/ links only this runtime, never the
// bundler, esbuild or minify. Thin adapters for the two Go MCP SDKs live in
// assets/gosdk and assets/mcpgo; assets/assetstest writes realistic dist/
// directories for tests.
package assets

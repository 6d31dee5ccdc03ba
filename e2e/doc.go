// Package e2e holds widgetd's end-to-end tests, and nothing else: the example
// widgets in widgets/ are built by the real pipeline (package bundler; inline,
// and external with their files served cross-origin by package assets) and
// rendered in real Chromium inside the real MCP Apps host (ext-apps AppBridge)
// and the ChatGPT host stand-in from internal/browsertest, with realistic
// tool results.
package e2e

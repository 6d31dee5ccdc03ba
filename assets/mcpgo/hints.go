package mcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets"
)

// ClientHints returns the hints the host sent in a request's _meta
// (openai/locale, openai/userAgent, openai/userLocation, openai/subject,
// openai/session, openai/organization; see assets.ClientHints). Pass the
// request's Params.Meta, e.g. ClientHints(req.Params.Meta) in a tool
// handler. Hints are never proof of identity.
func ClientHints(meta *mcp.Meta) assets.ClientHints {
	if meta == nil {
		return assets.ClientHints{}
	}
	return assets.ClientHintsFromMeta(meta.AdditionalFields)
}

// SupportsUI reports whether the client of the request in ctx advertised
// MCP Apps (capabilities.extensions["io.modelcontextprotocol/ui"] with the
// mcp-app MIME type; see assets.SupportsUI): from the request's own _meta
// under the 2026-07-28 protocol, else from the session's initialize. A tool
// can answer a client without UI with text alone.
func SupportsUI(ctx context.Context) bool {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern && info.ClientCapabilities != nil {
		return assets.SupportsUI(info.ClientCapabilities.Extensions)
	}
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok {
		return false
	}
	return assets.SupportsUI(s.GetClientCapabilities().Extensions)
}

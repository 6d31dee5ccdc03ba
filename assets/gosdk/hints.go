package gosdk

import (
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
)

// ClientHints returns the hints the host sent with req (openai/locale,
// openai/userAgent, openai/userLocation, openai/subject, openai/session,
// openai/organization in the request's _meta; see assets.ClientHints). The
// locale falls back to the one the client sent with initialize. Pass the
// request a tool handler receives. Hints are never proof of identity.
func ClientHints(req mcp.Request) assets.ClientHints {
	if req == nil {
		return assets.ClientHints{}
	}
	var meta map[string]any
	if p := req.GetParams(); !isNil(p) {
		meta = p.GetMeta()
	}
	h := assets.ClientHintsFromMeta(meta)
	if h.Locale == "" {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
			if ip := ss.InitializeParams(); ip != nil {
				h.Locale = assets.ClientHintsFromMeta(ip.Meta).Locale
			}
		}
	}
	return h
}

// isNil reports whether p is nil or a nil pointer (the SDK's Params methods
// dereference their receiver).
func isNil(p mcp.Params) bool {
	if p == nil {
		return true
	}
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// CapabilitiesRequest is what SupportsUI reads: every *mcp.ServerRequest
// (such as the *mcp.CallToolRequest a tool handler receives) has it.
type CapabilitiesRequest interface {
	ClientCapabilities() *mcp.ClientCapabilities
}

// SupportsUI reports whether the client behind req advertised MCP Apps
// (capabilities.extensions["io.modelcontextprotocol/ui"] with the mcp-app
// MIME type; see assets.SupportsUI), from its initialize request or, under
// the 2026-07-28 protocol, from the request's own _meta. A tool can answer
// a client without UI with text alone.
func SupportsUI(req CapabilitiesRequest) bool {
	if req == nil {
		return false
	}
	caps := req.ClientCapabilities()
	return caps != nil && assets.SupportsUI(caps.Extensions)
}

package mcpgo

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/widgetd/widgetd/assets"
)

// Result returns a tool result in its three tiers: text as content (for the
// model and hosts without UI), structured as structuredContent (what the
// widget renders and the model reads) and meta as the widget-only _meta
// (see assets.ResultMeta).
func Result(text string, structured any, meta assets.ResultMeta) (*mcp.CallToolResult, error) {
	m, err := meta.Wire()
	if err != nil {
		return nil, err
	}
	res := mcp.NewToolResultStructured(structured, text)
	if m != nil {
		res.Meta = mcp.NewMetaFromMap(m)
	}
	return res, nil
}

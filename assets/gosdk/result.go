package gosdk

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
)

// Result returns a tool result with text as its content (for the model and
// hosts without UI) and meta as its widget-only _meta. Return it from an
// mcp.AddTool handler together with the output value: the SDK fills
// structuredContent from that value, the tier the widget renders and the
// model reads (see assets.ResultMeta).
func Result(text string, meta assets.ResultMeta) (*mcp.CallToolResult, error) {
	m, err := meta.Wire()
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, Meta: m}, nil
}

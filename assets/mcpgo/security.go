package mcpgo

import (
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/widgetd/widgetd/assets"
)

// SetSecuritySchemes writes schemes to t's _meta["securitySchemes"], for a
// tool without a widget (AttachWidget writes ToolOptions.SecuritySchemes the
// same way). Serve through SecuritySchemesHandler (or SecuritySchemesWriter
// over stdio) to send them also as the tool's top-level securitySchemes.
func SetSecuritySchemes(t *mcp.Tool, schemes ...assets.SecurityScheme) error {
	wire, err := assets.SecuritySchemesWire(schemes)
	if err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	if t.Meta == nil {
		t.Meta = mcp.NewMetaFromMap(map[string]any{})
	}
	if t.Meta.AdditionalFields == nil {
		t.Meta.AdditionalFields = map[string]any{}
	}
	t.Meta.AdditionalFields["securitySchemes"] = wire
	return nil
}

package mcpgo

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
)

// Audit runs the tool-level rules of `widgetd check` (status text length,
// resourceUri resolving to a registered widget, openai/fileParams schemas,
// required annotations, outputSchema on widget tools, securitySchemes) over
// tools as tools/list would send them. Call it at
// start-up and refuse to serve on error-level findings.
func Audit(reg *assets.Registry, tools ...mcp.Tool) ([]audit.Finding, error) {
	return audit.CheckSDKTools(reg, func(t mcp.Tool) string { return t.Name }, tools...)
}

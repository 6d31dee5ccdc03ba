package mcpgo

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
)

// Audit runs the tool-level rules of `widgetd check` (status text length,
// resourceUri resolving to a registered widget, openai/fileParams schemas,
// required annotations) over tools as tools/list would send them. Call it at
// start-up and refuse to serve on error-level findings.
func Audit(reg *assets.Registry, tools ...mcp.Tool) ([]audit.Finding, error) {
	parsed := make([]audit.Tool, 0, len(tools))
	for _, t := range tools {
		data, err := json.Marshal(t)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		pt, err := audit.ParseTool(data)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		parsed = append(parsed, pt)
	}
	return audit.CheckTools(parsed, reg), nil
}

package mcpgo

import (
	"maps"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

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

// AuditServer runs the same rules over every tool registered on s, in name
// order, as tools/list sends them.
func AuditServer(reg *assets.Registry, s *server.MCPServer) ([]audit.Finding, error) {
	registered := s.ListTools()
	names := slices.Sorted(maps.Keys(registered))
	tools := make([]mcp.Tool, len(names))
	for i, n := range names {
		tools[i] = registered[n].Tool
	}
	return Audit(reg, tools...)
}

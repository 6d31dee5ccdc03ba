package gosdk

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
)

// Audit runs the tool-level rules of `widgetd check` (status text length,
// resourceUri resolving to a registered widget, openai/fileParams schemas,
// required annotations, outputSchema on widget tools, securitySchemes) over
// tools as tools/list would send them. Call it at
// start-up and refuse to serve on error-level findings, so a store review
// never finds what the server could have.
func Audit(reg *assets.Registry, tools ...*mcp.Tool) ([]audit.Finding, error) {
	return audit.CheckSDKTools(reg, func(t *mcp.Tool) string { return t.Name }, tools...)
}

// AuditServer runs the same rules over the tools s lists, as a client sees
// them: connected through the SDK's in-memory transport, so the schemas
// mcp.AddTool infers (on its own copy of each tool) are audited too. Prefer
// it to Audit once every tool is added.
func AuditServer(ctx context.Context, reg *assets.Registry, s *mcp.Server) ([]audit.Finding, error) {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("audit: connect: %w", err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "widgetd-audit", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, fmt.Errorf("audit: connect: %w", err)
	}
	defer cs.Close()
	var tools []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("audit: tools/list: %w", err)
		}
		tools = append(tools, t)
	}
	return Audit(reg, tools...)
}

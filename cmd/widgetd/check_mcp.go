package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/check"
	"github.com/widgetd/widgetd/cmd/widgetd/internal/mcplist"
)

// mcpCheckTimeout bounds how long check --mcp waits on the server for the
// whole exchange (handshake, lists and reads).
const mcpCheckTimeout = 60 * time.Second

// serverOutput is what check --mcp read from the server, for the summary
// line and the --json report.
type serverOutput struct {
	// Endpoint is the --mcp URL.
	Endpoint string `json:"endpoint"`
	// Tools are the names of the tools audited, in the server's order.
	Tools []string `json:"tools"`
}

// auditServer lists the tools and resources of the MCP server at endpoint
// (streamable HTTP) and runs check.RunServer on them against the build in.
func auditServer(ctx context.Context, endpoint string, in *check.Input) ([]audit.Finding, *serverOutput, error) {
	ctx, cancel := context.WithTimeout(ctx, mcpCheckTimeout)
	defer cancel()
	c, err := mcplist.Connect(ctx, endpoint, "widgetd-check")
	if err != nil {
		return nil, nil, fmt.Errorf("--mcp: %w", err)
	}
	defer c.Close()
	listing, err := c.List(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("--mcp %s: %w", endpoint, err)
	}
	out := &serverOutput{Endpoint: endpoint, Tools: []string{}}
	var srv check.Server
	for _, r := range listing.Resources {
		srv.Listed = append(srv.Listed, r.URI)
	}
	for _, raw := range listing.Tools {
		tool, err := audit.ParseTool(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("--mcp %s: %w", endpoint, err)
		}
		srv.Tools = append(srv.Tools, tool)
		out.Tools = append(out.Tools, tool.Name)
	}
	srv.Readable = readableLinks(ctx, c.Session, srv)
	return check.RunServer(srv, in), out, nil
}

// readableLinks returns the ui:// URIs the tools link that the server does
// not list but answers resources/read for (an unhashed alias, say), so
// only links no host could read are reported.
func readableLinks(ctx context.Context, cs *mcp.ClientSession, srv check.Server) []string {
	var readable []string
	for _, t := range srv.Tools {
		for _, u := range audit.WidgetURIs(t) {
			if !strings.HasPrefix(u, "ui://") || slices.Contains(srv.Listed, u) || slices.Contains(readable, u) {
				continue
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: u}); err == nil {
				readable = append(readable, u)
			}
		}
	}
	return readable
}

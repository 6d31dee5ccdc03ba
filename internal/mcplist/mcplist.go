// Package mcplist connects to a running MCP server over streamable HTTP with
// the official go-sdk client and lists what it offers (tools, resources), for
// the widgetd commands that read a server rather than sources (check --mcp).
package mcplist

import (
	"context"
	"fmt"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Listing is what a server lists: every page of tools/list and
// resources/list, in the server's order.
type Listing struct {
	// Tools are the tools as tools/list sends them.
	Tools []*mcp.Tool
	// Resources are the listed resources.
	Resources []*mcp.Resource
}

// ValidateEndpoint reports whether raw is an absolute http or https URL, the
// only kind the streamable HTTP transport dials; the error says how to fix it.
func ValidateEndpoint(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http:// or https:// URL; pass the server's MCP endpoint, such as http://localhost:8000/mcp", raw)
	}
	return nil
}

// Connect opens a client session with the server at endpoint (its streamable
// HTTP MCP endpoint), introducing itself as clientName. The caller closes
// the session.
func Connect(ctx context.Context, endpoint, clientName string) (*mcp.ClientSession, error) {
	if err := ValidateEndpoint(endpoint); err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w (is the server running, and is this its MCP endpoint?)", endpoint, err)
	}
	return cs, nil
}

// List reads every page of tools/list and resources/list, each when the
// server's capabilities offer it.
func List(ctx context.Context, cs *mcp.ClientSession) (*Listing, error) {
	l := &Listing{}
	caps := cs.InitializeResult().Capabilities
	if caps != nil && caps.Tools != nil {
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("tools/list: %w", err)
			}
			l.Tools = append(l.Tools, t)
		}
	}
	if caps != nil && caps.Resources != nil {
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("resources/list: %w", err)
			}
			l.Resources = append(l.Resources, r)
		}
	}
	return l, nil
}

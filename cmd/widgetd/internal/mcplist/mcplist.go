// Package mcplist connects to a running MCP server over streamable HTTP with
// the official go-sdk client and lists what it offers (tools exactly as sent,
// resources), for the widgetd commands that read a server rather than
// sources (check --mcp).
package mcplist

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Listing is what a server lists: every page of tools/list and
// resources/list, in the server's order.
type Listing struct {
	// Tools are the tools exactly as tools/list sends them, every field
	// kept (the go-sdk's Tool type drops those it does not know, such as
	// the top-level securitySchemes).
	Tools []json.RawMessage
	// Resources are the listed resources.
	Resources []*mcp.Resource
}

// Client is a session with a server over streamable HTTP that also keeps
// the tools/list answers as sent.
type Client struct {
	// Session is the go-sdk client session, for further requests.
	Session *mcp.ClientSession
	wire    *wireRecorder
}

// ValidateEndpoint reports whether raw is an absolute http or https URL, the
// only kind the streamable HTTP transport dials; the error says how to fix it.
func ValidateEndpoint(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return fmt.Errorf("%q is not an http:// or https:// URL; pass the server's MCP endpoint, such as http://localhost:8000/mcp", raw)
	}
	return nil
}

// Connect opens a client session with the server at endpoint (its streamable
// HTTP MCP endpoint), introducing itself as clientName. The caller closes
// the client.
func Connect(ctx context.Context, endpoint, clientName string) (*Client, error) {
	if err := ValidateEndpoint(endpoint); err != nil {
		return nil, err
	}
	wire := &wireRecorder{base: http.DefaultTransport}
	transport := &mcp.StreamableClientTransport{Endpoint: endpoint, DisableStandaloneSSE: true, HTTPClient: &http.Client{Transport: wire}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: "1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w (is the server running, and is this its MCP endpoint?)", endpoint, err)
	}
	return &Client{Session: cs, wire: wire}, nil
}

// Close ends the session.
func (c *Client) Close() error { return c.Session.Close() }

// List reads every page of tools/list and resources/list, each when the
// server's capabilities offer it.
func (c *Client) List(ctx context.Context) (*Listing, error) {
	l := &Listing{}
	caps := c.Session.InitializeResult().Capabilities
	if caps != nil && caps.Tools != nil {
		c.wire.reset()
		decoded := 0
		for _, err := range c.Session.Tools(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("tools/list: %w", err)
			}
			decoded++
		}
		tools, err := c.wire.tools()
		if err != nil {
			return nil, err
		}
		if len(tools) != decoded {
			return nil, fmt.Errorf("tools/list: %d tools read off the wire, %d decoded by the client", len(tools), decoded)
		}
		l.Tools = tools
	}
	if caps != nil && caps.Resources != nil {
		for r, err := range c.Session.Resources(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("resources/list: %w", err)
			}
			l.Resources = append(l.Resources, r)
		}
	}
	return l, nil
}

package devserver

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/bundler"
)

// forwarder sends the widgets' tools/call requests to a real MCP server over
// Streamable HTTP with the official Go SDK client. The session is opened on
// first use and reopened once if a call fails on a dead session.
type forwarder struct {
	url string
	mu  sync.Mutex
	cs  *mcp.ClientSession
}

// session returns the open session, connecting when there is none.
func (f *forwarder) session(ctx context.Context) (*mcp.ClientSession, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cs != nil {
		return f.cs, nil
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "widgetd-dev", Version: bundler.Version}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: f.url, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to MCP server %s: %w", f.url, err)
	}
	f.cs = cs
	return cs, nil
}

// drop closes and forgets a session that failed.
func (f *forwarder) drop(cs *mcp.ClientSession) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cs == cs {
		f.cs = nil
		_ = cs.Close()
	}
}

// callTool forwards one tools/call and returns the server's result.
func (f *forwarder) callTool(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	var lastErr error
	for range 2 {
		cs, err := f.session(ctx)
		if err != nil {
			return nil, err
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err == nil {
			return res, nil
		}
		lastErr = err
		// Retry only when the session itself is gone (server restarted):
		// other failures may have reached the tool and must not repeat it.
		if ctx.Err() != nil || !(errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, mcp.ErrSessionMissing)) {
			break
		}
		f.drop(cs)
	}
	return nil, fmt.Errorf("tools/call %q on %s: %w", name, f.url, lastErr)
}

// close ends the session; a nil forwarder does nothing.
func (f *forwarder) close() {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cs != nil {
		_ = f.cs.Close()
		f.cs = nil
	}
}

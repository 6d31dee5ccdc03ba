package devserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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

	// tools is the last tools/list read for the inspector API (see
	// mcpinspect.go), guarded by toolsMu: a call looks its tool's schema
	// up there.
	toolsMu sync.Mutex
	tools   []serverTool
}

// session returns the open session, connecting when there is none.
func (f *forwarder) session(ctx context.Context) (*mcp.ClientSession, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cs != nil {
		return f.cs, nil
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "widgetd-dev", Version: bundler.Version}, nil)
	// Every answer is read through a size limit: the server is the user's,
	// but a runaway tool or resource must not fill the dev server's memory.
	hc := &http.Client{Transport: limitedTransport{base: http.DefaultTransport, limit: maxServerResponse}}
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: f.url, DisableStandaloneSSE: true, HTTPClient: hc}, nil)
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
	var res *mcp.CallToolResult
	err := f.do(ctx, func(ctx context.Context, cs *mcp.ClientSession) (err error) {
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("tools/call %q on %s: %w", name, f.url, err)
	}
	return res, nil
}

// do runs op on the session, reconnecting and running it once more when
// the session itself is gone (the server restarted). Other failures may
// have reached the server (a tool ran) and are not repeated.
func (f *forwarder) do(ctx context.Context, op func(context.Context, *mcp.ClientSession) error) error {
	return withOverLimit(ctx, func(ctx context.Context) error { return f.retry(ctx, op) })
}

// retry is do without the size report.
func (f *forwarder) retry(ctx context.Context, op func(context.Context, *mcp.ClientSession) error) error {
	var lastErr error
	for range 2 {
		cs, err := f.session(ctx)
		if err != nil {
			return err
		}
		if lastErr = op(ctx, cs); lastErr == nil {
			return nil
		}
		if ctx.Err() != nil || !(errors.Is(lastErr, mcp.ErrConnectionClosed) || errors.Is(lastErr, mcp.ErrSessionMissing)) {
			break
		}
		f.drop(cs)
	}
	return lastErr
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

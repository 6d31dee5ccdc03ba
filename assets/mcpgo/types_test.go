package mcpgo

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets"
)

// TestServeTypes: outside `widgetd types --from` ServeTypes returns at once;
// over a stream, it answers initialize and tools/list and returns without
// error when the stream ends (cmd/widgetd TestTypesFromCheckTypes runs it
// as a real process).
func TestServeTypes(t *testing.T) {
	s := server.NewMCPServer("s", "1")
	s.AddTool(mcp.NewTool("t", mcp.WithDescription("d")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	t.Setenv(assets.TypesEnv, "")
	if served, err := ServeTypes(context.Background(), s); served || err != nil {
		t.Fatalf("not requested: served %v, err %v", served, err)
	}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`)
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serveTypesOn(context.Background(), s, in, w); w.Close() }()
	dec := json.NewDecoder(r)
	var answers []map[string]any
	for len(answers) < 2 {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("after %d answers: %v", len(answers), err)
		}
		answers = append(answers, m)
	}
	go io.Copy(io.Discard, r)
	if err := <-done; err != nil {
		t.Fatalf("serveTypesOn at the end of input: %v", err)
	}
	// mcp-go handles stdio requests concurrently: the answers may come in
	// either order, so find tools/list's by its id.
	var list map[string]any
	for _, a := range answers {
		if a["id"] == 2.0 {
			list = a
		}
	}
	result, _ := list["result"].(map[string]any)
	tools, _ := result["tools"].([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["name"] != "t" {
		t.Errorf("tools/list answered %v (answers %v)", list, answers)
	}
}

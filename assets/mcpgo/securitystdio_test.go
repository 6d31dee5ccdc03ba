package mcpgo_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/mcpgo"
)

// TestSecuritySchemesOverStdio runs an mcp-go stdio server over real OS
// pipes with its stdout wrapped by SecuritySchemesWriter: tools/list sends
// the same tools as over HTTP (the HTTP golden, top-level securitySchemes
// included), and the other answers still arrive.
func TestSecuritySchemesOverStdio(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- server.NewStdioServer(metaServer(t)).Listen(ctx, inR, mcpgo.SecuritySchemesWriter(outW))
		outW.Close()
	}()
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio-test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	} {
		if _, err := inW.WriteString(msg + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	answers := map[float64]json.RawMessage{}
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	for len(answers) < 3 && lines.Scan() {
		var m struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("stdout line is not JSON: %v: %s", err, lines.Bytes())
		}
		answers[m.ID] = m.Result
	}
	inW.Close() // EOF ends Listen
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("Listen: %v", err)
	}
	if !strings.Contains(string(answers[1]), `"serverInfo"`) || string(answers[3]) != "{}" {
		t.Errorf("initialize answered %s, ping %s", answers[1], answers[3])
	}
	// Never -update from here: the HTTP test owns the golden.
	assetstest.Golden(t, filepath.Join("testdata", "tools-list.golden.json"), answers[2], false)
}

// TestSecuritySchemesWriterLines feeds the writer the ways a stdio server
// may write: a message in pieces, two messages in one write, and lines it
// must pass through unchanged.
func TestSecuritySchemesWriterLines(t *testing.T) {
	const tools = `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","_meta":{"securitySchemes":[{"type":"noauth"}]}}]}}`
	const promoted = `{"id":1,"jsonrpc":"2.0","result":{"tools":[{"_meta":{"securitySchemes":[{"type":"noauth"}]},"name":"a","securitySchemes":[{"type":"noauth"}]}]}}`
	const ping = `{"jsonrpc":"2.0","id":2,"result":{}}`
	const call = `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"\"securitySchemes\""}]}}`
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"whole line", []string{tools + "\n"}, promoted + "\n"},
		{"split line", []string{tools[:20], tools[20:60], tools[60:] + "\n"}, promoted + "\n"},
		{"two in one write", []string{ping + "\n" + tools + "\n"}, ping + "\n" + promoted + "\n"},
		{"other answer naming the key", []string{call + "\n"}, call + "\n"},
		{"unfinished line held back", []string{ping + "\n" + tools[:30]}, ping + "\n"},
	} {
		var out strings.Builder
		w := mcpgo.SecuritySchemesWriter(&out)
		for _, p := range tc.writes {
			if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
				t.Errorf("%s: Write = %d, %v; want %d, nil", tc.name, n, err, len(p))
			}
		}
		if out.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, out.String(), tc.want)
		}
	}
}

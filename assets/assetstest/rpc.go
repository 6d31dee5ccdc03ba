package assetstest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/internal/golden"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// PostRPC sends one JSON-RPC request to an MCP streamable HTTP endpoint
// and returns the raw result exactly as the server wrote it, so adapter
// tests can pin what goes on the wire rather than what an SDK client
// decodes. It reads a plain JSON answer and an SSE stream alike. Against a
// stateless endpoint no initialize is needed; for a session, send
// initialize first and pass its answer's header (Mcp-Session-Id) as h. A
// method under notifications/ is sent without an id and returns no result.
func PostRPC(ctx context.Context, url string, h http.Header, method string, params any) (json.RawMessage, http.Header, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	notification := strings.HasPrefix(method, "notifications/")
	if !notification {
		msg["id"] = 1
	}
	body, err := json.Marshal(msg)
	if err != nil {
		return nil, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	if id := h.Get("Mcp-Session-Id"); id != "" {
		req.Header.Set("Mcp-Session-Id", id)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, err
	}
	if notification && res.StatusCode == http.StatusAccepted {
		return nil, res.Header, nil
	}
	if res.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("%s: HTTP %d: %s", method, res.StatusCode, data)
	}
	result, err := decodeAnswer(method, data, res.Header.Get("Content-Type"))
	return result, res.Header, err
}

// decodeAnswer returns the result of the JSON-RPC response in data (a JSON
// document or an SSE stream).
func decodeAnswer(method string, data []byte, contentType string) (json.RawMessage, error) {
	if strings.HasPrefix(contentType, "text/event-stream") {
		var err error
		if data, err = sseData(data); err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		return nil, fmt.Errorf("%s: decode %q: %w", method, data, err)
	}
	if msg.Error != nil {
		return nil, fmt.Errorf("%s: error %s", method, msg.Error)
	}
	return msg.Result, nil
}

// sseData returns the data of the first SSE event that is a JSON-RPC
// response.
func sseData(stream []byte) ([]byte, error) {
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data:")
		if ok && strings.Contains(d, `"id"`) {
			return []byte(strings.TrimSpace(d)), nil
		}
	}
	return nil, fmt.Errorf("no response event in the SSE stream %q", stream)
}

var hashInURI = regexp.MustCompile(`\.[0-9a-f]{8,16}\.`)

// Golden compares got, indented and with content hashes in URIs replaced by
// HASH, with the file; with update it writes the file instead. A diff means
// what the server sends changed.
func Golden(t testing.TB, file string, got json.RawMessage, update bool) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, got, "", "  "); err != nil {
		t.Fatalf("golden %s: %v", file, err)
	}
	golden.Check(t, file, []byte(hashInURI.ReplaceAllString(buf.String(), ".HASH.")+"\n"), update)
}

// ToolsListGolden checks a tools/list answer as an SDK adapter sent it: it
// lists want tools, each top-level securitySchemes equals its _meta mirror
// (both present or both absent), and each tool passes the audit as sent;
// then raw is compared with the golden file (rewritten with update). The
// go-sdk and mcp-go adapter tests share it, so both SDKs meet one contract.
func ToolsListGolden(t testing.TB, raw json.RawMessage, want int, file string, update bool) {
	t.Helper()
	var res struct {
		Tools []audit.Tool `json:"tools"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Tools) != want {
		t.Fatalf("tools/list: %v %s", err, raw)
	}
	for _, tool := range res.Tools {
		mirror, hasMirror := tool.Meta["securitySchemes"]
		if hasMirror != (tool.SecuritySchemes != nil) || (hasMirror && string(marshal(t, mirror)) != string(marshal(t, tool.SecuritySchemes))) {
			t.Errorf("%s: top-level securitySchemes %v, _meta mirror %v", tool.Name, tool.SecuritySchemes, mirror)
		}
		if fs := audit.CheckTool(tool, nil); len(fs) != 0 {
			t.Errorf("%s as sent fails the audit: %v", tool.Name, fs)
		}
	}
	Golden(t, file, raw, update)
}

// marshal is json.Marshal failing t on error.
func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

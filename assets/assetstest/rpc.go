package assetstest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// PostRPC sends one JSON-RPC request to an MCP streamable HTTP endpoint (a
// stateless one: no initialize first) and returns the raw result exactly as
// the server wrote it, so adapter tests can pin what goes on the wire
// rather than what an SDK client decodes. It reads a plain JSON answer and
// an SSE stream alike.
func PostRPC(ctx context.Context, url, method string, params any) (json.RawMessage, error) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d: %s", method, res.StatusCode, data)
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
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
	norm := hashInURI.ReplaceAllString(buf.String(), ".HASH.") + "\n"
	if update {
		if err := os.WriteFile(file, []byte(norm), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if norm != string(want) {
		t.Errorf("%s differs from what the server sent:\n%s", file, norm)
	}
}

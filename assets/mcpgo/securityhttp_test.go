package mcpgo

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPromoteInAnswer covers the answer shapes SecuritySchemesHandler may
// see: plain JSON, an SSE stream with a notification before the response,
// and messages it must leave alone.
func TestPromoteInAnswer(t *testing.T) {
	const tools = `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","_meta":{"securitySchemes":[{"type":"noauth"}]}},{"name":"b"}]}}`
	const promoted = `{"id":1,"jsonrpc":"2.0","result":{"tools":[{"_meta":{"securitySchemes":[{"type":"noauth"}]},"name":"a","securitySchemes":[{"type":"noauth"}]},{"name":"b"}]}}`
	for _, tc := range []struct{ name, ctype, in, want string }{
		{"json", "application/json", tools, promoted},
		{"sse", "text/event-stream", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\nevent: message\ndata: " + tools + "\n\n",
			"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\nevent: message\ndata: " + promoted + "\n\n"},
		{"no schemes", "application/json", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"b"}]}}`, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"b"}]}}`},
		{"error answer", "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`},
		{"not json", "application/json", `oops`, `oops`},
		{"tools not a list", "application/json", `{"id":1,"result":{"tools":{}}}`, `{"id":1,"result":{"tools":{}}}`},
	} {
		if got := string(promoteInAnswer([]byte(tc.in), tc.ctype)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestIsToolsList: the body stays readable in full after the peek.
func TestIsToolsList(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tools/list"}}`, false},
		{`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, false},
		{`{"method":"tools/list","pad":"` + strings.Repeat("x", maxListRequest) + `"}`, false},
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tc.body))
		if got := isToolsList(r); got != tc.want {
			t.Errorf("isToolsList(%.60s) = %v, want %v", tc.body, got, tc.want)
		}
		rest := new(strings.Builder)
		if _, err := io.Copy(rest, r.Body); err != nil || rest.String() != tc.body {
			t.Errorf("body after the peek: %d bytes, %v; want the %d sent", rest.Len(), err, len(tc.body))
		}
	}
}

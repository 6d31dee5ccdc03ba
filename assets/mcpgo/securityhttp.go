package mcpgo

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/assets/internal/sdkadapter"
)

// maxListRequest bounds the request body SecuritySchemesHandler reads to
// tell a tools/list request from others; a larger one is passed on as is.
const maxListRequest = 1 << 20

// SecuritySchemesHandler wraps an mcp-go streamable HTTP handler (such as
// server.NewStreamableHTTPServer(s)) so that tools/list answers carry each
// tool's _meta["securitySchemes"] also as its top-level securitySchemes,
// where OpenAI's Apps SDK reference (and SEP-1488) put it. mcp-go's Tool
// marshals a fixed set of fields and its hooks cannot add one, so this is
// done on the HTTP answer, JSON or SSE. Other requests pass through
// untouched; over stdio, wrap stdout with SecuritySchemesWriter.
func SecuritySchemesHandler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !isToolsList(r) {
			next.ServeHTTP(w, r)
			return
		}
		rec := &bufferedWriter{header: w.Header(), status: http.StatusOK}
		next.ServeHTTP(rec, r)
		body := rec.body.Bytes()
		if rec.status == http.StatusOK {
			body = promoteInAnswer(body, w.Header().Get("Content-Type"))
		}
		if w.Header().Get("Content-Length") != "" {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(body)
	})
}

// isToolsList reports whether r's body is a single tools/list request,
// leaving the body readable for the next handler.
func isToolsList(r *http.Request) bool {
	head, err := io.ReadAll(io.LimitReader(r.Body, maxListRequest+1))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil || len(head) > maxListRequest {
		return false
	}
	var msg struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(head, &msg) == nil && msg.Method == "tools/list"
}

// promoteInAnswer rewrites the JSON-RPC response in body (a JSON document or
// an SSE stream); anything it cannot read is returned unchanged.
func promoteInAnswer(body []byte, contentType string) []byte {
	if !strings.HasPrefix(contentType, "text/event-stream") {
		return promoteResponse(body)
	}
	lines := bytes.Split(body, []byte("\n"))
	for i, line := range lines {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			lines[i] = append([]byte("data: "), promoteResponse(bytes.TrimSpace(data))...)
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

// promoteResponse rewrites one JSON-RPC response message whose result is a
// tools/list result; other messages come back unchanged.
func promoteResponse(msg []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil || m["result"] == nil {
		return msg
	}
	out, changed, err := sdkadapter.PromoteSecuritySchemes(m["result"])
	if err != nil || !changed {
		return msg
	}
	m["result"] = out
	if rewritten, err := json.Marshal(m); err == nil {
		return rewritten
	}
	return msg
}

// bufferedWriter holds a response until the wrapped handler returns. Its
// header map is the real writer's, so headers the handler sets go through.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header returns the real writer's header map.
func (b *bufferedWriter) Header() http.Header { return b.header }

// WriteHeader records the status.
func (b *bufferedWriter) WriteHeader(status int) { b.status = status }

// Write buffers p.
func (b *bufferedWriter) Write(p []byte) (int, error) { return b.body.Write(p) }

// Flush does nothing: the answer is sent whole once rewritten.
func (b *bufferedWriter) Flush() {}

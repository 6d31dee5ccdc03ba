package mcplist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/widgetd/widgetd/internal/syncbuf"
)

// wireRecorder is the HTTP transport of a Client: it passes every request
// on and keeps the answers to tools/list requests as they arrive, so a tool
// is read with every field the server sends (the go-sdk's Tool type drops
// those it does not know, such as the top-level securitySchemes).
type wireRecorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	// answers holds, in request order, each tools/list request's ID and
	// the bytes of its answer read so far.
	answers []recordedAnswer
}

// recordedAnswer is one tools/list answer: the request ID (compact JSON),
// the Content-Type and the body as the client reads it.
type recordedAnswer struct {
	id          string
	contentType string
	body        *syncbuf.Buffer
}

// RoundTrip sends req; a tools/list answer's body is recorded as read.
func (r *wireRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.Body == nil {
		return r.base.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the request: %w", err)
	}
	req = req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	id, isList := toolsListID(body)
	resp, err := r.base.RoundTrip(req)
	if err != nil || !isList {
		return resp, err
	}
	recorded := new(syncbuf.Buffer)
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(resp.Body, recorded), resp.Body}
	r.mu.Lock()
	r.answers = append(r.answers, recordedAnswer{id: id, contentType: resp.Header.Get("Content-Type"), body: recorded})
	r.mu.Unlock()
	return resp, nil
}

// toolsListID reports whether body is a single tools/list request, with
// its ID as compact JSON.
func toolsListID(body []byte) (id string, ok bool) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/list" || msg.ID == nil {
		return "", false
	}
	return compact(msg.ID), true
}

// reset forgets the answers recorded so far.
func (r *wireRecorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers = nil
}

// tools returns the tools of every recorded tools/list answer, in order,
// each as the server sent it.
func (r *wireRecorder) tools() ([]json.RawMessage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var tools []json.RawMessage
	for _, a := range r.answers {
		result, err := a.result()
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(result, &page); err != nil {
			return nil, fmt.Errorf("tools/list result: %w", err)
		}
		tools = append(tools, page.Tools...)
	}
	return tools, nil
}

// result finds the JSON-RPC response to a's request in its body: the body
// itself (application/json) or one event of an SSE stream.
func (a recordedAnswer) result() (json.RawMessage, error) {
	messages := []string{a.body.String()}
	if strings.HasPrefix(a.contentType, "text/event-stream") {
		messages = sseData(a.body.String())
	}
	for _, m := range messages {
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(m), &resp) == nil && resp.ID != nil && compact(resp.ID) == a.id && resp.Result != nil {
			return resp.Result, nil
		}
	}
	return nil, fmt.Errorf("tools/list: no answer to request %s in what the server sent (%s)", a.id, a.contentType)
}

// sseData returns the data of every event in an SSE stream, each event's
// data lines joined by newlines.
func sseData(stream string) []string {
	var events []string
	var data []string
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if len(data) > 0 {
				events = append(events, strings.Join(data, "\n"))
			}
			data = nil
			continue
		}
		if v, ok := strings.CutPrefix(line, "data:"); ok {
			data = append(data, strings.TrimPrefix(v, " "))
		}
	}
	if len(data) > 0 {
		events = append(events, strings.Join(data, "\n"))
	}
	return events
}

// compact is raw with insignificant space removed, so IDs compare as text.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

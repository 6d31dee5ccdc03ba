package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// Bounds of what the dev server reads from, and waits for, the --mcp
// server. The server is the user's own, but a tool that loops or a resource
// that grows without end must not take the dev server down with it.
const (
	// maxServerResponse is the largest HTTP response body read from the
	// server: one tools/list page, one tools/call result, one resources/read.
	maxServerResponse = 8 << 20
	// maxServerTools is the most tools the inspector lists; the rest are
	// left out and the answer says so.
	maxServerTools = 500
	// maxServerResources is the most resources/list entries read while
	// looking for a widget's listed _meta.
	maxServerResources = 1000
	// maxResourceURI is the longest resource URI the inspector reads.
	maxResourceURI = 2048
	// listTimeout bounds tools/list (every page) and resources/list.
	listTimeout = 10 * time.Second
	// readTimeout bounds one resources/read.
	readTimeout = 15 * time.Second
	// callTimeout bounds one tools/call made from the inspector.
	callTimeout = 60 * time.Second
)

// limitedTransport caps the body of every response at limit bytes: reading
// past it fails with an error that names the limit.
type limitedTransport struct {
	base  http.RoundTripper
	limit int64
}

// RoundTrip sends req through the base transport and wraps the body.
func (t limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	mark, _ := req.Context().Value(overLimitKey{}).(*atomic.Bool)
	resp.Body = &limitedBody{rc: resp.Body, left: t.limit, limit: t.limit, mark: mark}
	return resp, nil
}

// limitedBody reads at most limit bytes of rc, then fails and sets mark.
type limitedBody struct {
	rc    io.ReadCloser
	left  int64
	limit int64
	mark  *atomic.Bool
}

// overLimitKey is the context key of the flag a request's limitedBody sets
// when the answer was too large: the go-sdk client reports a body it could
// not finish as "request terminated without response", so the forwarder
// asks the flag why (see withOverLimit).
type overLimitKey struct{}

// errTooLarge says an answer of the --mcp server was cut at the limit.
var errTooLarge = errors.New("the MCP server's answer is larger than widgetd dev reads")

// withOverLimit runs op with a context that records a too-large answer,
// and names the limit in the error when one was cut.
func withOverLimit(ctx context.Context, op func(context.Context) error) error {
	mark := new(atomic.Bool)
	err := op(context.WithValue(ctx, overLimitKey{}, mark))
	if err != nil && mark.Load() {
		return fmt.Errorf("%w (more than %d bytes): %w", errTooLarge, maxServerResponse, err)
	}
	return err
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// Exactly limit bytes is fine: only more is refused.
		var one [1]byte
		if n, err := b.rc.Read(one[:]); n == 0 && err != nil {
			return 0, err
		}
		if b.mark != nil {
			b.mark.Store(true)
		}
		return 0, fmt.Errorf("MCP server response larger than %d bytes; widgetd dev reads no more", b.limit)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

package fastserve

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync/atomic"
)

// Limits of the response cache: paths are bounded by the handler (only 200
// responses are stored) and this cap; responses per path by the 16
// encoding classes times GET and HEAD.
const (
	maxTargets     = 4096
	maxEncodings   = 32
	readBufferSize = 4096 // heads longer than this go to net/http
	maxFiles       = 1024 // memfds for sendfile; larger caches write from memory
)

// targetCache holds the memoised responses of one request target.
type targetCache struct {
	entries atomic.Pointer[[]*response]
}

// response is one memoised response: head is the status line and headers
// without Date and the final CRLF.
type response struct {
	head     bool // a HEAD response (no body)
	class    encodingClass
	header   []byte
	body     []byte
	file     *bodyFile // the body in a sealed memfd for sendfile, or nil
	encoding string
}

// lookup returns the memoised response for q, running the origin handler to
// fill the cache on a miss. It returns nil when the response may not be
// memoised: the request then goes to net/http.
func (s *Server) lookup(q *request) *response {
	q.class = classOf(q.ae, q.hasAE)
	m := *s.cache.Load()
	if tc := m[string(q.target)]; tc != nil {
		if es := tc.entries.Load(); es != nil {
			for _, e := range *es {
				if e.head == q.head && e.class == q.class {
					return e
				}
			}
		}
	}
	return s.fill(q)
}

// fill runs the origin handler for q and stores the result if it may be
// memoised.
func (s *Server) fill(q *request) *response {
	resp := s.record(q)
	if resp == nil {
		return nil
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.filesClosed {
		return nil
	}
	m := *s.cache.Load()
	tc := m[string(q.target)]
	if tc == nil {
		if len(m) >= maxTargets {
			return nil
		}
		tc = &targetCache{}
		next := make(map[string]*targetCache, len(m)+1)
		for k, v := range m {
			next[k] = v
		}
		next[string(q.target)] = tc
		s.cache.Store(&next)
	}
	var es []*response
	if p := tc.entries.Load(); p != nil {
		es = *p
	}
	for _, e := range es {
		if e.head == resp.head && e.class == resp.class {
			return e
		}
		if !resp.head && !e.head && bytes.Equal(e.body, resp.body) {
			resp.body, resp.file = e.body, e.file // share identical bodies
		}
	}
	if len(es) >= maxEncodings {
		return nil
	}
	if !resp.head && resp.file == nil && len(resp.body) >= sendfileMin && len(s.files) < maxFiles {
		if f := newBodyFile(resp.body); f != nil {
			resp.file = f
			s.files = append(s.files, f)
		}
	}
	next := append(slices.Clip(es), resp)
	tc.entries.Store(&next)
	return resp
}

// record runs the origin handler on a synthetic request equal to q and
// serialises the response, or returns nil if it must not be memoised. A
// panic in the handler is logged and returns nil: net/http then serves the
// request (and its recovery applies).
func (s *Server) record(q *request) (resp *response) {
	defer func() {
		if p := recover(); p != nil {
			resp = nil
			if s.logger != nil {
				s.logger.Error("handler panicked while the fast path memoised a response; net/http serves the request",
					"target", string(q.target), "panic", fmt.Sprint(p))
			}
		}
	}()
	u, err := url.ParseRequestURI(string(q.target))
	if err != nil {
		return nil
	}
	req := &http.Request{
		Method:     q.method(),
		URL:        u,
		RequestURI: string(q.target),
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     http.Header{},
		Host:       "origin",
	}
	if q.hasAE {
		req.Header["Accept-Encoding"] = []string{string(q.ae)}
	}
	rec := &recorder{h: http.Header{}}
	s.origin.ServeHTTP(rec, req)
	h := rec.h
	if rec.code != http.StatusOK || len(h["Etag"]) != 1 || len(h["Content-Length"]) != 1 ||
		len(h["Cache-Control"]) != 1 || h["Cache-Control"][0] == "no-store" {
		return nil
	}
	if q.head {
		if len(rec.body) != 0 {
			return nil
		}
	} else if h["Content-Length"][0] != strconv.Itoa(len(rec.body)) {
		return nil
	}
	b, ok := serialiseHead(h)
	if !ok {
		return nil
	}
	return &response{head: q.head, class: q.class, header: b, body: rec.body,
		encoding: h.Get("Content-Encoding")}
}

// serialiseHead writes a 200 status line and h's fields, sorted by name as
// net/http sends them, without the blank line that ends the head. ok is
// false when h may not be memoised: it has Date (the fast path adds its
// own), Connection or Transfer-Encoding, or a value with a control byte.
func serialiseHead(h http.Header) (b []byte, ok bool) {
	b = append(b, "HTTP/1.1 200 OK\r\n"...)
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == "Date" || k == "Connection" || k == "Transfer-Encoding" {
			return nil, false
		}
		for _, v := range h[k] {
			for i := 0; i < len(v); i++ {
				if v[i] < 0x20 && v[i] != '\t' || v[i] == 0x7f {
					return nil, false
				}
			}
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	return b, true
}

// recorder is a minimal http.ResponseWriter that keeps what the handler wrote.
type recorder struct {
	h     http.Header
	code  int
	body  []byte
	wrote bool
}

func (r *recorder) Header() http.Header { return r.h }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	r.body = append(r.body, b...)
	return len(b), nil
}

// Package fastserve is an HTTP/1.1 server for origins whose common requests
// are plain GETs of static, content-addressed responses, such as
// assets.Registry's handler. It owns the connection handling, the strict
// request-head parser, the memoised responses and their writev/sendfile
// output, and the hand-off to net/http; it knows nothing about what it
// serves.
//
// net/http spends most of a static hit on per-request work that a CDN origin
// does not need (building an *http.Request and a header map, a response
// writer, a context), which caps a 60 KB brotli hit at about half of nginx's
// rate on two cores.
//
// Server keeps one goroutine per connection like net/http, but answers the
// common request — a keep-alive HTTP/1.1 GET or HEAD of a plain path, no
// conditional or Range header, no body — from pre-serialised responses with
// one writev (or, on Linux, a send of the head and a sendfile of the body
// from a sealed memfd). Those responses are produced by the real handler:
// the first such request for a (method, target, Accept-Encoding class) runs
// the handler through a recorder and stores the status line, headers and body,
// so the fast path can only ever send what the handler would (plus Date).
// Only 200 responses that carry an ETag and a matching Content-Length are
// stored, so dynamic paths (no-store) and errors never are.
//
// Everything else — other methods, conditionals, Range, bodies, query
// strings, HTTP/1.0, Connection: close, anything the strict parser does not
// accept, heads longer than 4 KiB — is handed, with the bytes already read,
// to a plain net/http server with the same limits, which serves the rest of
// that connection. A head that cannot be a fast one (bare LF, a request
// line that is not HTTP/1.1) is handed off as soon as that is visible, the
// head's deadline carries over, and net/http can half-close the connection
// it got. Correctness therefore rests on net/http for every unusual request
// and on the handler for every response body and header.
//
// The Accept-Encoding class (see encodingClass) assumes the handler
// negotiates Content-Encoding among br, gzip and identity by RFC 9110
// q-values with ties in that order, as assets' handler does.
package fastserve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Server is the HTTP/1.1 engine. Create it with New; the zero value is not
// usable.
type Server struct {
	origin  http.Handler // the handler whose responses get memoised
	observe func(Hit)    // Options.Observer, or nil
	logger  *slog.Logger // Options.Logger, or nil
	// Effective timeouts of the fast path, with http.Server's defaulting
	// applied; 0 means none.
	readHeader, idle, write time.Duration
	slow                    *http.Server
	slowLn                  *chanListener
	cache                   atomic.Pointer[map[string]*targetCache]
	cacheMu                 sync.Mutex  // serialises cache writers
	files                   []*bodyFile // memfds of memoised bodies, under cacheMu
	// filesClosed is set, under cacheMu, once the memfds are closed.
	filesClosed bool
	date        atomic.Pointer[[]byte]

	mu      sync.Mutex
	ln      net.Listener
	conns   map[*conn]struct{}
	closing atomic.Bool
	wg      sync.WaitGroup
	stop    chan struct{}
}

// Options configures a Server. The limits mean what the http.Server fields
// of the same names mean, zero and negative values included, and are given
// to the net/http fallback unchanged; the fast path enforces
// ReadHeaderTimeout (while a request head arrives), IdleTimeout (between
// requests) and WriteTimeout (per response) itself.
type Options struct {
	// Fallback is the handler net/http runs for every request the fast path
	// does not answer. nil means the handler given to New. A different
	// handler must answer the requests New's handler answers with a
	// memoisable 200 exactly as that handler does — typically it is that
	// handler wrapped in middleware that only observes (access log,
	// metrics) or adds endpoints the handler does not serve.
	Fallback http.Handler

	// The limits, as in http.Server (see Options).
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int

	// Observer, if non-nil, is called once for every response the fast path
	// sends, on the connection's goroutine, after the response is written
	// and before the next request is read; it must not block. Responses from
	// the fallback are not reported here: observe them in Fallback.
	Observer func(Hit)

	// Logger receives the fallback http.Server's error log at level Warn.
	// nil leaves http.Server's default (the log package's standard logger).
	Logger *slog.Logger

	// BaseContext is the fallback http.Server's BaseContext: it returns the
	// base context of requests net/http serves. The listener it receives is
	// the internal one that hands connections from the fast path to
	// net/http. nil means context.Background().
	BaseContext func(net.Listener) context.Context
}

// Hit describes one response the fast path sent, for metrics and access
// logs. Its byte slices point into the connection's read buffer and are
// valid only during the Observer call: copy them (string(h.Target)) to keep
// them. Passing it by value keeps the hot path free of allocations.
type Hit struct {
	Method    string        // http.MethodGet or http.MethodHead
	Target    []byte        // request target: a plain path, no query
	UserAgent []byte        // the User-Agent value, empty if absent
	Remote    net.Addr      // the client's address
	Status    int           // always http.StatusOK: only 200s are memoised
	Bytes     int64         // body bytes sent; 0 for HEAD
	Encoding  string        // Content-Encoding sent, "" for identity
	Duration  time.Duration // from the parsed head to the written response
}

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

// New returns a Server that answers plain keep-alive GET and HEAD requests
// from memoised responses of handler and hands every other request to a
// net/http server running opts.Fallback (default handler) with opts' limits.
// handler's 200 responses that carry exactly one ETag, Content-Length and
// Cache-Control (not no-store) and no Date, Connection or
// Transfer-Encoding are memoised per (method, target, Accept-Encoding
// class) the first time they are asked for, and sent as is afterwards: handler must
// therefore answer such a request the same way every time for the Server's
// lifetime, which content-addressed static files do. The status must be
// explicit (WriteHeader(200) or a Write): a HEAD answer that only sets
// headers is left to net/http, which is correct but not fast.
//
// New starts the fallback and a clock goroutine; Shutdown or Close stops
// them.
func New(handler http.Handler, opts Options) *Server {
	fallback := opts.Fallback
	if fallback == nil {
		fallback = handler
	}
	s := &Server{
		origin:     handler,
		observe:    opts.Observer,
		logger:     opts.Logger,
		readHeader: orReadTimeout(opts.ReadHeaderTimeout, opts.ReadTimeout),
		idle:       orReadTimeout(opts.IdleTimeout, opts.ReadTimeout),
		write:      max(opts.WriteTimeout, 0),
		slowLn:     newChanListener(),
		conns:      map[*conn]struct{}{},
		stop:       make(chan struct{}),
	}
	s.slow = &http.Server{
		Handler:           fallback,
		ReadHeaderTimeout: opts.ReadHeaderTimeout,
		ReadTimeout:       opts.ReadTimeout,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    opts.MaxHeaderBytes,
		BaseContext:       opts.BaseContext,
	}
	if opts.Logger != nil {
		s.slow.ErrorLog = slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn)
	}
	empty := map[string]*targetCache{}
	s.cache.Store(&empty)
	s.setDate(time.Now())
	go func() { _ = s.slow.Serve(s.slowLn) }()
	go s.clock()
	return s
}

// orReadTimeout applies http.Server's rule for ReadHeaderTimeout and
// IdleTimeout: zero means ReadTimeout, and a negative result means no
// timeout (returned as 0).
func orReadTimeout(d, read time.Duration) time.Duration {
	if d == 0 {
		d = read
	}
	return max(d, 0)
}

// deadline returns now+d, or no deadline when d is 0.
func deadline(now time.Time, d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return now.Add(d)
}

// clock keeps the Date header current, once a second.
func (s *Server) clock() {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case now := <-t.C:
			s.setDate(now)
		case <-s.stop:
			return
		}
	}
}

func (s *Server) setDate(now time.Time) {
	b := make([]byte, 0, 40)
	b = append(b, "Date: "...)
	b = now.UTC().AppendFormat(b, http.TimeFormat)
	b = append(b, "\r\n\r\n"...)
	s.date.Store(&b)
}

// Serve accepts connections on ln until Shutdown or Close, then returns
// http.ErrServerClosed, as http.Server does. A Server serves one listener.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closing.Load() {
		s.mu.Unlock()
		return http.ErrServerClosed
	}
	s.ln = ln
	s.mu.Unlock()
	var backoff time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if s.closing.Load() {
				return http.ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				if s.logger != nil {
					// At most one line per backoff step: 1/s under a
					// sustained shortage.
					s.logger.Warn("accept failed, retrying (out of file descriptors? raise the process's open-file limit or lower --max-conns)",
						"error", err.Error(), "retry_in", backoff.String())
				}
				time.Sleep(backoff)
				continue
			}
			return err
		}
		backoff = 0
		fc := &conn{s: s, c: c}
		s.mu.Lock()
		if s.closing.Load() {
			s.mu.Unlock()
			c.Close()
			return http.ErrServerClosed
		}
		s.conns[fc] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go fc.serve()
	}
}

// Shutdown stops accepting, lets in-flight requests finish, closes idle
// connections and waits for all of them (and the net/http fallback) until
// ctx is done; then it closes what is left and returns ctx's error.
func (s *Server) Shutdown(ctx context.Context) error {
	s.beginClose()
	slowErr := make(chan error, 1)
	go func() { slowErr <- s.slow.Shutdown(ctx) }()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	for {
		// Wake connections waiting for their next request; busy ones see
		// the flag when their response is written.
		s.mu.Lock()
		for fc := range s.conns {
			if fc.idle.Load() {
				_ = fc.c.SetReadDeadline(time.Now())
			}
		}
		s.mu.Unlock()
		select {
		case <-done:
			s.closeFiles()
			return <-slowErr
		case <-ctx.Done():
			s.Close()
			<-slowErr
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Close closes the listener and every connection at once. The memfds are
// closed once the connection goroutines have returned, so no sendfile can
// ever use a reused descriptor number.
func (s *Server) Close() error {
	s.beginClose()
	s.mu.Lock()
	for fc := range s.conns {
		fc.c.Close()
	}
	s.mu.Unlock()
	go func() {
		s.wg.Wait()
		s.closeFiles()
	}()
	return s.slow.Close()
}

// closeFiles closes the memfds; only after every connection has ended. The
// cache is frozen first so that no later fill creates new ones.
func (s *Server) closeFiles() {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	for _, f := range s.files {
		f.close()
	}
	s.files = nil
	s.filesClosed = true
}

func (s *Server) beginClose() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Swap(true) {
		return
	}
	close(s.stop)
	if s.ln != nil {
		s.ln.Close()
	}
	s.slowLn.Close()
}

// conn is one client connection served by the fast path.
type conn struct {
	s    *Server
	c    net.Conn
	idle atomic.Bool
	rdl  time.Time // current read deadline
	wdl  time.Time // current write deadline
	bufs [3][]byte
	// out is the writev list over bufs. It lives here, not on the stack,
	// because WriteTo's pointer receiver would move it to the heap on every
	// response.
	out  net.Buffers
	send *sendState // nil when the connection has no raw fd
	hbuf []byte     // head + Date for the sendfile path
	// headDL is when the current request head must be complete:
	// ReadHeaderTimeout from accept for the first request, from its first
	// byte for later ones. It holds across a hand-off to net/http.
	headDL time.Time
}

func (fc *conn) serve() {
	s := fc.s
	handedOff, graceful := false, false
	defer func() {
		s.mu.Lock()
		delete(s.conns, fc)
		s.mu.Unlock()
		if graceful {
			fc.closeGracefully()
		} else if !handedOff {
			fc.c.Close()
		}
		s.wg.Done()
	}()
	r := bufio.NewReaderSize(fc.c, readBufferSize)
	if sc, ok := fc.c.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			fc.send = newSendState(raw)
		}
	}
	// The first request must arrive within ReadHeaderTimeout of accept.
	fc.headDL = deadline(time.Now(), s.readHeader)
	fc.setReadDeadline(fc.headDL)
	first := true
	for {
		if s.closing.Load() && r.Buffered() == 0 {
			graceful = true
			return
		}
		if r.Buffered() == 0 {
			// Wait for the next request under IdleTimeout. Deadlines are
			// moved only when half spent, to keep timer work off the hot path.
			if !first {
				fc.extendReadDeadline(s.idle)
			}
			fc.idle.Store(true)
			if s.closing.Load() {
				return
			}
			_, err := r.Peek(1)
			fc.idle.Store(false)
			if err != nil {
				return
			}
			if !first {
				fc.headDL = deadline(time.Now(), s.readHeader)
			}
		}
		first = false
		head, err := fc.readHead(r)
		if err != nil {
			return
		}
		if head == nil {
			// Not for the fast path: net/http serves the rest of the
			// connection, starting with the bytes already read.
			handedOff = fc.handOff(r)
			return
		}
		req, ok := parseHead(head)
		if !ok {
			handedOff = fc.handOff(r)
			return
		}
		start := time.Now()
		resp := s.lookup(&req)
		if resp == nil {
			handedOff = fc.handOff(r)
			return
		}
		_, _ = r.Discard(len(head))
		if err := fc.write(resp, start); err != nil {
			return
		}
		if s.observe != nil {
			n := int64(len(resp.body))
			if resp.head {
				n = 0
			}
			s.observe(Hit{
				Method:    req.method(),
				Target:    req.target,
				UserAgent: req.userAgent,
				Remote:    fc.c.RemoteAddr(),
				Status:    http.StatusOK,
				Bytes:     n,
				Encoding:  resp.encoding,
				Duration:  time.Since(start),
			})
		}
	}
}

// closeGracefully ends a connection the server chose to close while the
// client may still be sending (shutdown with pipelined requests in flight):
// like net/http, it sends FIN after the responses already written, drains
// input for a moment, then closes, so the client does not get a reset that
// would discard responses it has not read yet.
func (fc *conn) closeGracefully() {
	defer fc.c.Close()
	tc, ok := fc.c.(closeWriter)
	if !ok || tc.CloseWrite() != nil {
		return
	}
	_ = fc.c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	var buf [512]byte
	for {
		if _, err := fc.c.Read(buf[:]); err != nil {
			return
		}
	}
}

// readHead returns the bytes of the next request head (through the blank
// line) without consuming them, reading more until the head's deadline if
// it is not complete yet. It returns nil, at once, when the head cannot be
// one the fast path answers — a bare LF line end, a request line that is
// not HTTP/1.1 (HTTP/0.9, HTTP/1.0, h2c's preface) — or does not fit the
// buffer, so net/http decides (and answers 431 when it is too large).
func (fc *conn) readHead(r *bufio.Reader) ([]byte, error) {
	buf, _ := r.Peek(r.Buffered())
	if i := bytes.Index(buf, crlfcrlf); i >= 0 {
		return buf[:i+4], nil
	}
	if notFastHead(buf) {
		return nil, nil
	}
	// Incomplete head: the rest must arrive by the head's deadline.
	fc.setReadDeadline(fc.headDL)
	defer fc.setReadDeadline(deadline(time.Now(), fc.s.idle))
	for {
		n := r.Buffered()
		if n >= readBufferSize {
			return nil, nil
		}
		if _, err := r.Peek(n + 1); err != nil { // blocks until more bytes arrive
			return nil, err
		}
		buf, _ := r.Peek(r.Buffered())
		if i := bytes.Index(buf[max(0, n-3):], crlfcrlf); i >= 0 {
			return buf[:max(0, n-3)+i+4], nil
		}
		if notFastHead(buf) {
			return nil, nil
		}
	}
}

// notFastHead reports whether the start of a head already rules the fast
// path out: a line ending in a bare LF, or a complete request line that
// does not end in " HTTP/1.1".
func notFastHead(buf []byte) bool {
	i := bytes.IndexByte(buf, '\n')
	if i < 0 {
		return false
	}
	if i == 0 || buf[i-1] != '\r' || !bytes.HasSuffix(buf[:i-1], []byte(" HTTP/1.1")) {
		return true
	}
	for j := i + 1; j < len(buf); j++ {
		if buf[j] == '\n' && buf[j-1] != '\r' {
			return true
		}
	}
	return false
}

// closeWriter is a connection that can half-close (send FIN) while still
// reading, as *net.TCPConn can.
type closeWriter interface{ CloseWrite() error }

var crlfcrlf = []byte("\r\n\r\n")

func (fc *conn) setReadDeadline(t time.Time) {
	fc.rdl = t
	_ = fc.c.SetReadDeadline(t)
}

// extendReadDeadline sets the read deadline to now+d, but skips the timer
// work while the current deadline is already within d/16 of that: the
// effective timeout is between 15/16·d and d. d 0 means no deadline.
func (fc *conn) extendReadDeadline(d time.Duration) {
	if d <= 0 {
		if !fc.rdl.IsZero() {
			fc.setReadDeadline(time.Time{})
		}
		return
	}
	now := time.Now()
	if left := fc.rdl.Sub(now); left < d-d/16 || left > d {
		fc.setReadDeadline(now.Add(d))
	}
}

// write sends one memoised response with Date in a single writev (or
// send+sendfile). Like the read deadline, the write deadline is between
// 15/16 and all of WriteTimeout from the start of the response.
func (fc *conn) write(resp *response, now time.Time) error {
	if d := fc.s.write; d > 0 {
		if left := fc.wdl.Sub(now); left < d-d/16 || left > d {
			fc.wdl = now.Add(d)
			_ = fc.c.SetWriteDeadline(fc.wdl)
		}
	}
	if resp.file != nil && !resp.head && fc.send != nil {
		fc.hbuf = append(append(fc.hbuf[:0], resp.header...), *fc.s.date.Load()...)
		return fc.send.send(fc.hbuf, resp.file, len(resp.body))
	}
	fc.bufs[0] = resp.header
	fc.bufs[1] = *fc.s.date.Load()
	fc.bufs[2] = resp.body
	fc.out = fc.bufs[:]
	if resp.head {
		fc.out = fc.bufs[:2]
	}
	_, err := fc.out.WriteTo(fc.c)
	return err
}

// handOff gives the connection, with the unconsumed bytes, to the net/http
// fallback server. It reports whether the fallback took it.
//
// The head being read keeps its deadline: net/http's first read deadline
// (its ReadHeaderTimeout, which would start over) is capped at it.
func (fc *conn) handOff(r *bufio.Reader) bool {
	pending, _ := r.Peek(r.Buffered())
	rc := &replayConn{Conn: fc.c, pending: bytes.Clone(pending), headDL: fc.headDL}
	_ = fc.c.SetDeadline(time.Time{})
	return fc.s.slowLn.deliver(rc)
}

// request is the parsed head of a fast-path candidate. Its slices point
// into the connection's read buffer and are valid until the next read.
type request struct {
	head      bool
	target    []byte
	ae        []byte
	hasAE     bool
	class     encodingClass // set by lookup
	userAgent []byte
}

func (q *request) method() string {
	if q.head {
		return http.MethodHead
	}
	return http.MethodGet
}

// parseHead accepts only what the fast path can answer without net/http:
// "GET|HEAD <plain path> HTTP/1.1", CRLF line ends, syntactically valid
// fields, exactly one Host, at most one Accept-Encoding, and no field that
// changes the response (conditionals, Range) or the framing (bodies,
// Connection other than keep-alive, Expect, Upgrade). Anything else is
// refused (ok false) and goes to net/http, which is the reference.
func parseHead(h []byte) (q request, ok bool) {
	line, rest, found := bytes.Cut(h, crlf)
	if !found {
		return q, false
	}
	switch {
	case bytes.HasPrefix(line, []byte("GET ")):
		line = line[4:]
	case bytes.HasPrefix(line, []byte("HEAD ")):
		q.head = true
		line = line[5:]
	default:
		return q, false
	}
	target, proto, found := bytes.Cut(line, []byte(" "))
	if !found || string(proto) != "HTTP/1.1" || len(target) == 0 || target[0] != '/' {
		return q, false
	}
	for _, c := range target {
		if !plainPathByte[c] {
			return q, false
		}
	}
	q.target = target
	hosts := 0
	for {
		line, rest, found = bytes.Cut(rest, crlf)
		if !found {
			return q, false
		}
		if len(line) == 0 {
			break
		}
		name, value, found := bytes.Cut(line, []byte(":"))
		if !found || len(name) == 0 {
			return q, false
		}
		for _, c := range name {
			if !tokenByte[c] {
				return q, false
			}
		}
		value = bytes.Trim(value, " \t")
		for _, c := range value {
			if c < 0x20 && c != '\t' || c == 0x7f {
				return q, false
			}
		}
		switch {
		case asciiEqualFold(name, "host"):
			hosts++
			for _, c := range value {
				if !hostByte[c] {
					return q, false
				}
			}
		case asciiEqualFold(name, "accept-encoding"):
			if q.hasAE {
				return q, false
			}
			q.hasAE, q.ae = true, value
		case asciiEqualFold(name, "user-agent"):
			q.userAgent = value
		case asciiEqualFold(name, "connection"):
			if !asciiEqualFold(value, "keep-alive") {
				return q, false
			}
		case len(name) >= 3 && asciiEqualFold(name[:3], "if-"),
			asciiEqualFold(name, "range"),
			asciiEqualFold(name, "content-length"),
			asciiEqualFold(name, "transfer-encoding"),
			asciiEqualFold(name, "expect"),
			asciiEqualFold(name, "upgrade"),
			asciiEqualFold(name, "te"),
			asciiEqualFold(name, "trailer"):
			return q, false
		}
	}
	if hosts != 1 || len(rest) != 0 {
		return q, false
	}
	return q, true
}

var crlf = []byte("\r\n")

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// Byte classes of the strict parser.
var (
	tokenByte     = byteSet("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	plainPathByte = byteSet("/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	hostByte      = byteSet("-.:[]_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
)

func byteSet(s string) (t [256]bool) {
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return t
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
	var b []byte
	b = append(b, "HTTP/1.1 200 OK\r\n"...)
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == "Date" || k == "Connection" || k == "Transfer-Encoding" {
			return nil
		}
		for _, v := range h[k] {
			for i := 0; i < len(v); i++ {
				if v[i] < 0x20 && v[i] != '\t' || v[i] == 0x7f {
					return nil
				}
			}
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	return &response{head: q.head, class: q.class, header: b, body: rec.body,
		encoding: h.Get("Content-Encoding")}
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

// replayConn is a connection whose first reads return bytes the fast path
// already read from it. Its first read deadline is capped at headDL (the
// deadline of the head the fast path began to read), and it half-closes
// like the connection it wraps, so net/http ends it with FIN, not RST.
type replayConn struct {
	net.Conn
	pending []byte
	headDL  time.Time
	capped  bool
}

// SetReadDeadline caps the first deadline net/http sets (the header
// deadline of the handed-off request) at headDL.
func (c *replayConn) SetReadDeadline(t time.Time) error {
	if !c.capped {
		c.capped = true
		if !c.headDL.IsZero() && (t.IsZero() || t.After(c.headDL)) {
			t = c.headDL
		}
	}
	return c.Conn.SetReadDeadline(t)
}

// CloseWrite half-closes the wrapped connection, if it can.
func (c *replayConn) CloseWrite() error {
	if cw, ok := c.Conn.(closeWriter); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// chanListener is the net.Listener of the net/http fallback: connections
// arrive from the fast path instead of a socket.
type chanListener struct {
	ch     chan net.Conn
	done   chan struct{}
	once   sync.Once
	closed atomic.Bool
}

func newChanListener() *chanListener {
	return &chanListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

func (l *chanListener) deliver(c net.Conn) bool {
	select {
	case l.ch <- c:
		return true
	case <-l.done:
		return false
	}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *chanListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

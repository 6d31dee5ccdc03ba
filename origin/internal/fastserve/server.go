package fastserve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Server is the HTTP/1.1 engine. Create it with New; the zero value is not
// usable.
type Server struct {
	origin    http.Handler                   // the handler whose responses get memoised
	observe   func(Hit)                      // Options.Observer, or nil
	connState func(net.Conn, http.ConnState) // Options.ConnState, or nil
	logger    *slog.Logger                   // Options.Logger, or nil
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

	// The limits, as in http.Server (see the Options doc above).
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

	// ConnState, if non-nil, is told the states of connections, as
	// http.Server's hook of that name is: for a connection on the fast
	// path, StateNew when it is accepted, StateActive when the first byte
	// of a request arrives, StateIdle when it waits for the next request
	// after a response, and StateClosed when it ends; for a connection
	// handed to net/http, what net/http reports from then on, on a
	// net.Conn whose NetConn method returns the accepted connection. It is
	// called on the connection's goroutine and must not block; a hit
	// calls it twice, so it should not allocate either.
	ConnState func(net.Conn, http.ConnState)

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
		connState:  opts.ConnState,
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
		ConnState:         opts.ConnState,
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

// clock keeps the Date header current: it is rebuilt every 500 ms, so the
// second it names is never more than half a second late.
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

// setDate stores the Date field line for now, with the blank line that ends
// every memoised head.
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

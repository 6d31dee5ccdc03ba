// Package origin serves a dist/ written by widgetd build as a CDN origin:
// the assets handler ((*assets.Registry).Handler) behind an HTTP server with
// production limits, a connection cap, panic recovery, an optional access
// log and Prometheus /metrics, graceful shutdown and, optionally, HTTPS
// (certificate files that reload, or ACME) with a plain-HTTP redirect.
//
// `widgetd serve` is a thin command over it: it parses flags, loads the
// registry and calls Listen and Serve. A Go program that embeds its dist/
// can run the same origin:
//
//	reg, err := assets.Load(distFS)
//	...
//	err = origin.ListenAndServe(ctx, origin.Options{Registry: reg, Addr: ":8080"})
//
// Plain HTTP runs on one of two engines (see Engine); HTTPS always runs
// net/http. Both engines send the same bytes; docs/serving.md has the
// behaviour table and BENCHMARKS.md the measurements behind the default.
package origin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/origin/internal/connlimit"
)

// Engine names the HTTP server that answers plain HTTP.
type Engine string

// The engines. Over TLS the origin always runs net/http (HTTP/2 and
// HTTP/1.1), whatever the engine says.
const (
	// EngineNetHTTP is the standard library's http.Server.
	EngineNetHTTP Engine = "net/http"
	// EngineFast is the hand-written HTTP/1.1 engine (origin/internal/
	// fastserve): pre-serialised responses for plain GET and HEAD hits,
	// net/http for every other request. Opt-in: it is faster, but its
	// parser is this module's, not the standard library's.
	EngineFast Engine = "fast"
)

// DefaultEngine is the engine used when Options.Engine is empty.
const DefaultEngine = EngineNetHTTP

// DefaultMaxConns is `widgetd serve --max-conns`' default: far above what a
// CDN's origin pulls need, far below the descriptors Go raises its limit to.
const DefaultMaxConns = 4096

// Options configure an origin.
type Options struct {
	// Registry is the loaded dist/ to serve (required).
	Registry *assets.Registry
	// Addr is the main listen address, host:port (port 0 picks a free one).
	Addr string
	// Engine is the plain-HTTP engine; empty means DefaultEngine.
	Engine Engine
	// Metrics serves Prometheus text-format metrics at /metrics.
	Metrics bool
	// AccessLog logs one structured line per request to Logger.
	AccessLog bool
	// MaxConns caps the connections served at once on every listener: at
	// the cap a new connection closes the one idle longest, and waits in
	// the listen backlog while none is idle. 0: no cap.
	MaxConns int
	// ShutdownTimeout is how long Serve lets in-flight requests finish
	// once its context is done.
	ShutdownTimeout time.Duration
	// TLS turns HTTPS on when its files or ACME hosts are set.
	TLS TLSOptions
	// Logger receives the access log, server errors and lifecycle events;
	// nil discards them.
	Logger *slog.Logger
}

// engine returns the engine to run, DefaultEngine when none is set.
func (o Options) engine() Engine {
	if o.Engine == "" {
		return DefaultEngine
	}
	return o.Engine
}

// Server is an origin whose listeners are open: Listen returns it, Serve
// runs it. Call Serve or Close exactly once.
type Server struct {
	ln              net.Listener // the main listener, connection-capped
	addr            net.Addr
	scheme          string
	engine          Engine
	srv             originServer
	redirect        *redirectListener // nil without TLS.RedirectAddr
	maxConns        int
	shutdownTimeout time.Duration
	logger          *slog.Logger
}

// Listen checks opts, opens the main listener (and the redirect listener
// when opts.TLS.RedirectAddr is set) and loads the TLS certificate, so that
// every startup error (port in use, bad certificate) is returned here,
// before anything is served. ctx is the base context of every request.
func Listen(ctx context.Context, opts Options) (*Server, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, err
	}
	s := &Server{addr: ln.Addr(), scheme: "http", engine: opts.engine(), maxConns: opts.MaxConns,
		shutdownTimeout: opts.ShutdownTimeout, logger: logger}
	lim := defaultServerLimits()
	if !opts.TLS.Enabled() {
		s.srv = newOriginServer(ctx, opts, logger, lim)
	} else {
		_, port, _ := net.SplitHostPort(s.addr.String())
		if s.srv, s.redirect, err = newTLSServer(ctx, opts, logger, lim, port); err != nil {
			ln.Close()
			return nil, err
		}
		s.scheme = "https"
	}
	s.ln = connlimit.New(ln, opts.MaxConns, logger, "main")
	return s, nil
}

// validate checks what Listen cannot run with.
func (o Options) validate() error {
	if o.Registry == nil {
		return errors.New("origin: Options.Registry is nil: load a dist/ with assets.Load")
	}
	if e := o.engine(); e != EngineFast && e != EngineNetHTTP {
		return fmt.Errorf("engine %q: want fast or net/http", e)
	}
	return o.TLS.Validate()
}

// Addr is the main listener's address.
func (s *Server) Addr() net.Addr { return s.addr }

// Scheme is "https" when the origin speaks TLS, else "http".
func (s *Server) Scheme() string { return s.scheme }

// Protocols describes what the main listener speaks, for a startup line.
func (s *Server) Protocols() string {
	if s.scheme == "https" {
		return "HTTP/2 and HTTP/1.1, net/http"
	}
	return "HTTP/1.1, engine " + string(s.engine)
}

// RedirectAddr is the address of the plain-HTTP listener that redirects to
// HTTPS, nil without one.
func (s *Server) RedirectAddr() net.Addr {
	if s.redirect == nil {
		return nil
	}
	return s.redirect.ln.Addr()
}

// Serve serves until ctx is done, then shuts down: the listeners close and
// in-flight requests get ShutdownTimeout to finish. It returns nil after a
// clean shutdown, and the server's error if it stopped on its own.
func (s *Server) Serve(ctx context.Context) error {
	if s.redirect != nil {
		go s.redirect.serve(s.maxConns, s.logger)
		defer s.redirect.stop(ctx)
	}
	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(s.ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.logger.Info("shutting down", "timeout", s.shutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.shutdownTimeout)
	defer cancel()
	if err := s.srv.Shutdown(sctx); err != nil {
		_ = s.srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Close closes the listeners of a Server that Serve was not called on.
func (s *Server) Close() error {
	if s.redirect != nil {
		s.redirect.ln.Close()
	}
	return s.ln.Close()
}

// ListenAndServe is Listen followed by Serve.
func ListenAndServe(ctx context.Context, opts Options) error {
	s, err := Listen(ctx, opts)
	if err != nil {
		return err
	}
	return s.Serve(ctx)
}

package origin

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/origin/internal/connlimit"
	"github.com/widgetd/widgetd/origin/internal/fastserve"
)

// serverLimits are the HTTP server's timeouts and header limit. Listen uses
// defaultServerLimits; the abuse tests shorten the timeouts so they run fast.
type serverLimits struct {
	readHeader, read, write, idle time.Duration
	maxHeaderBytes                int
}

// defaultServerLimits returns the limits docs/serving.md documents.
func defaultServerLimits() serverLimits {
	return serverLimits{
		readHeader:     5 * time.Second,
		read:           10 * time.Second,
		write:          30 * time.Second,
		idle:           120 * time.Second,
		maxHeaderBytes: 16 << 10,
	}
}

// newHTTPServer is the http.Server the origin runs h with: the given limits,
// errors to the structured log, ctx as every request's base context, and
// connection states reported to the MaxConns listener (so that idle
// keep-alive connections, HTTP/2 ones included, make room at the limit).
func newHTTPServer(ctx context.Context, h http.Handler, logger *slog.Logger, lim serverLimits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.readHeader,
		ReadTimeout:       lim.read,
		WriteTimeout:      lim.write,
		IdleTimeout:       lim.idle,
		MaxHeaderBytes:    lim.maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ConnState:         connlimit.ConnState,
	}
}

// newServeHandler wraps the registry's origin with /metrics and the access
// log. With both off it returns the origin itself, so the hot path stays the
// zero-allocation handler.
func newServeHandler(reg *assets.Registry, opts Options, logger *slog.Logger) http.Handler {
	return newServeHandlerObs(reg.Handler(), newServeObserver(reg, opts, logger))
}

// newServeHandlerObs composes the served handler with chi: panics become a
// 500 instead of a dropped connection, obs (when set) adds /metrics and the
// access log, and every other request goes to origin unchanged (origin does
// its own method and path checks, so chi routes nothing else).
func newServeHandlerObs(origin http.Handler, obs *serveObserver) http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.Recoverer)
	if obs != nil {
		r.Use(obs.accessLog)
		if obs.metrics != nil {
			r.Handle("/metrics", obs.metricsHandler(origin))
		}
	}
	r.Handle("/*", origin)
	// chi routes only the methods it knows; origin answers the others
	// (PROPFIND, lower-case get, …) with its own 405 and Allow.
	r.MethodNotAllowed(origin.ServeHTTP)
	return r
}

// originServer is what Serve runs: the fast engine, a plain http.Server,
// or net/http over TLS.
type originServer interface {
	Serve(net.Listener) error
	Shutdown(context.Context) error
	Close() error
}

// newOriginServer returns the plain-HTTP server for opts.Registry: the fast
// HTTP/1.1 engine (internal/fastserve) memoising the registry's handler in
// front of a net/http fallback (EngineFast), or net/http alone
// (EngineNetHTTP). Both run the same handler, limits and observer.
func newOriginServer(ctx context.Context, opts Options, logger *slog.Logger, lim serverLimits) originServer {
	reg := opts.Registry
	obs := newServeObserver(reg, opts, logger)
	full := newServeHandlerObs(reg.Handler(), obs)
	if opts.engine() != EngineFast {
		return newHTTPServer(ctx, full, logger, lim)
	}
	return fastserve.New(reg.Handler(), fastOptions(ctx, full, obs, logger, lim))
}

// fastOptions configures the fast engine as newHTTPServer configures
// net/http: fallback (the registry's handler with /metrics and the access
// log) serves what the fast path does not, obs records the fast path's hits,
// and connection states go to the MaxConns listener.
func fastOptions(ctx context.Context, fallback http.Handler, obs *serveObserver, logger *slog.Logger, lim serverLimits) fastserve.Options {
	o := fastserve.Options{
		Fallback:          fallback,
		ReadHeaderTimeout: lim.readHeader,
		ReadTimeout:       lim.read,
		WriteTimeout:      lim.write,
		IdleTimeout:       lim.idle,
		MaxHeaderBytes:    lim.maxHeaderBytes,
		Logger:            logger,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ConnState:         connlimit.ConnState,
	}
	if obs != nil {
		o.Observer = obs.hit
	}
	return o
}

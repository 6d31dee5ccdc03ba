package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/internal/connlimit"
	"github.com/widgetd/widgetd/internal/fastserve"
)

// serveConfig holds the flags of widgetd serve.
type serveConfig struct {
	dir             string
	addr            string
	basePath        string
	metrics         bool
	accessLog       bool
	shutdownTimeout time.Duration
	engine          string
	maxConns        int
	tls             tlsFlags
}

// runServe implements `widgetd serve`: load and verify dist/, then run the
// asset origin until ctx is done or SIGINT/SIGTERM arrives, finishing
// in-flight requests before returning.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, code, ok := parseServeFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	reg, err := assets.Load(os.DirFS(cfg.dir), assets.WithLogger(logger), assets.WithBasePath(cfg.basePath), assets.WithDev("")) // the origin serves files only
	if err != nil {
		fmt.Fprintf(stderr, "widgetd serve: %s: %v\n", cfg.dir, err)
		return exitError
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return exitError
	}
	srv, scheme, shutdownRedirect, err := newServeServer(ctx, reg, cfg, logger, ln.Addr(), stdout)
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return exitError
	}
	defer shutdownRedirect()
	protocols := "HTTP/1.1, engine " + cfg.engine
	if scheme == "https" {
		protocols = "HTTP/2 and HTTP/1.1, net/http"
	}
	fmt.Fprintf(stdout, "widgetd serve: %s on %s://%s%s [%s] (build %s, %d widgets)\n",
		cfg.dir, scheme, ln.Addr(), reg.BasePath(), protocols, reg.Manifest().BuildID, len(reg.Widgets()))
	return serveUntilDone(ctx, srv, limitConns(ln, cfg.maxConns, logger, "main"), cfg.shutdownTimeout, logger, stderr)
}

// parseServeFlags reads and checks serve's flags. When ok is false, serve
// exits with code (usage printed, or help asked for).
func parseServeFlags(args []string, stdout, stderr io.Writer) (cfg serveConfig, code int, ok bool) {
	fs := newFlagSet("serve", "",
		"Serves a dist/ as a CDN origin: precompressed br/gzip variants, immutable\n"+
			"caching for hashed files, ETags, Range, CORS for sandboxed widget frames,\n"+
			"and /healthz. Stops gracefully on SIGINT or SIGTERM. --tls-cert and --tls-key\n"+
			"go together and exclude --acme-host.\n", stdout, stderr)
	fs.StringVar(&cfg.dir, "dir", "dist", "dist/ `dir` written by widgetd build")
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "listen `address` (host:port; loopback by default: give :8080 or 0.0.0.0:8080 to listen on every interface; port 0 picks a free port)")
	fs.StringVar(&cfg.basePath, "base-path", "/", "URL `path` prefix to serve under, e.g. /widgets")
	fs.BoolVar(&cfg.metrics, "metrics", false, "serve Prometheus text-format metrics at /metrics")
	fs.BoolVar(&cfg.accessLog, "access-log", true, "log one structured line per request to stderr")
	fs.StringVar(&cfg.engine, "engine", "fast", "HTTP `engine` for plain HTTP: fast (pre-serialised responses for plain GET/HEAD, net/http for the rest) or net/http; HTTPS always runs net/http (HTTP/2 and HTTP/1.1)")
	fs.IntVar(&cfg.maxConns, "max-conns", defaultMaxConns, "most `connections` served at once; at the limit a new connection closes the one idle longest, and waits in the listen backlog while none is idle (0: no limit)")
	addTLSFlags(fs, &cfg.tls)
	fs.DurationVar(&cfg.shutdownTimeout, "shutdown-timeout", 10*time.Second, "how long (a `duration`) to let in-flight requests finish on shutdown")
	if c, parsed := fs.parse(args); !parsed {
		return cfg, c, false
	}
	if cfg.engine != "fast" && cfg.engine != "net/http" {
		fmt.Fprintf(stderr, "widgetd serve: --engine %q: want fast or net/http\n", cfg.engine)
		return cfg, exitUsage, false
	}
	if err := cfg.tls.validate(); err != nil {
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return cfg, exitUsage, false
	}
	return cfg, exitOK, true
}

// serveUntilDone runs srv on ln until ctx is done, then shuts it down,
// letting in-flight requests finish for at most timeout. It returns serve's
// exit code.
func serveUntilDone(ctx context.Context, srv originServer, ln net.Listener, timeout time.Duration, logger *slog.Logger, stderr io.Writer) int {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return exitError
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", timeout.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		fmt.Fprintf(stderr, "widgetd serve: shutdown: %v\n", err)
		_ = srv.Close()
		return exitError
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return exitError
	}
	return exitOK
}

// serverLimits are the HTTP server's timeouts and header limit. serve uses
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

// newHTTPServer is the http.Server widgetd serve runs h with: the given limits,
// errors to the structured log, ctx as every request's base context, and
// connection states reported to --max-conns' listener (so that idle
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
func newServeHandler(reg *assets.Registry, cfg serveConfig, logger *slog.Logger) http.Handler {
	return newServeHandlerObs(reg.Handler(), newServeObserver(reg, cfg, logger))
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

// originServer is what runServe runs: the fast engine or a plain
// http.Server.
type originServer interface {
	Serve(net.Listener) error
	Shutdown(context.Context) error
	Close() error
}

// newOriginServer returns the server for widgetd serve: the fast HTTP/1.1
// engine (internal/fastserve) memoising the registry's handler in front of a
// net/http fallback (engine "fast", the default), or net/http alone (engine
// "net/http"). Both run the same handler, limits and observer.
func newOriginServer(ctx context.Context, reg *assets.Registry, cfg serveConfig, logger *slog.Logger, lim serverLimits) originServer {
	obs := newServeObserver(reg, cfg, logger)
	full := newServeHandlerObs(reg.Handler(), obs)
	if cfg.engine == "net/http" {
		return newHTTPServer(ctx, full, logger, lim)
	}
	return fastserve.New(reg.Handler(), fastOptions(ctx, full, obs, logger, lim))
}

// fastOptions configures the fast engine as newHTTPServer configures
// net/http: fallback (the registry's handler with /metrics and the access
// log) serves what the fast path does not, obs records the fast path's hits,
// and connection states go to --max-conns' listener.
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

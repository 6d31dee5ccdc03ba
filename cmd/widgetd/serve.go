package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/widgetd/widgetd/assets"
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
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg serveConfig
	fs.StringVar(&cfg.dir, "dir", "dist", "dist/ folder written by widgetd build")
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "listen address (host:port; loopback by default: give :8080 or 0.0.0.0:8080 to listen on every interface; port 0 picks a free port)")
	fs.StringVar(&cfg.basePath, "base-path", "/", "URL path prefix to serve under, e.g. /widgets")
	fs.BoolVar(&cfg.metrics, "metrics", false, "serve Prometheus text-format metrics at /metrics")
	fs.BoolVar(&cfg.accessLog, "access-log", true, "log one structured line per request to stderr")
	fs.StringVar(&cfg.engine, "engine", "fast", "HTTP engine for plain HTTP: fast (pre-serialised responses for plain GET/HEAD, net/http for the rest) or net/http; HTTPS always runs net/http (HTTP/2 and HTTP/1.1)")
	fs.IntVar(&cfg.maxConns, "max-conns", defaultMaxConns, "most connections held open at once; more wait in the listen backlog (0: no limit)")
	addTLSFlags(fs, &cfg.tls)
	fs.DurationVar(&cfg.shutdownTimeout, "shutdown-timeout", 10*time.Second, "how long to let in-flight requests finish on shutdown")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: widgetd serve [--dir dist] [--addr 127.0.0.1:8080] [--metrics] [--tls-cert F --tls-key F | --acme-host NAMES]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Serves a dist/ as a CDN origin: precompressed br/gzip variants, immutable")
		fmt.Fprintln(stderr, "caching for hashed files, ETags, Range, CORS for sandboxed widget frames,")
		fmt.Fprintln(stderr, "and /healthz. Stops gracefully on SIGINT or SIGTERM.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	if cfg.engine != "fast" && cfg.engine != "net/http" {
		fmt.Fprintf(stderr, "widgetd serve: --engine %q: want fast or net/http\n", cfg.engine)
		return exitUsage
	}
	if err := cfg.tls.validate(); err != nil {
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	reg, err := assets.Load(os.DirFS(cfg.dir), assets.WithLogger(logger), assets.WithBasePath(cfg.basePath))
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

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(limitConns(ln, cfg.maxConns, logger, "main")) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return exitError
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", cfg.shutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.shutdownTimeout)
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
// errors to the structured log, and ctx as every request's base context.
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

// metricsHandler answers GET and HEAD /metrics in the Prometheus text format
// and leaves other methods to origin, which refuses them like any path.
func (o *serveObserver) metricsHandler(origin http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			origin.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		o.metrics.write(w)
	})
}

// accessLog is chi middleware that logs and counts every answered request.
func (o *serveObserver) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		o.record(r.Context(), r.Method, r.URL.Path, sw.status, sw.bytes, w.Header().Get("Content-Encoding"),
			time.Since(start), r.RemoteAddr, r.UserAgent())
	})
}

// serveObserver is the access log and metrics of widgetd serve, shared by
// the net/http handler and the fast engine (through hit) so both record the
// same fields.
type serveObserver struct {
	logger  *slog.Logger // nil: no access log
	metrics *serveMetrics
}

// newServeObserver returns nil when both the access log and metrics are off.
func newServeObserver(reg *assets.Registry, cfg serveConfig, logger *slog.Logger) *serveObserver {
	if !cfg.metrics && !cfg.accessLog {
		return nil
	}
	o := &serveObserver{}
	if cfg.accessLog {
		o.logger = logger
	}
	if cfg.metrics {
		o.metrics = &serveMetrics{buildID: reg.Manifest().BuildID}
	}
	return o
}

// record logs and counts one answered request.
func (o *serveObserver) record(ctx context.Context, method, path string, status int, n int64, encoding string, d time.Duration, remote, ua string) {
	if o.metrics != nil {
		o.metrics.observe(status, encoding, n, d)
	}
	if o.logger != nil {
		o.logger.LogAttrs(ctx, slog.LevelInfo, "request",
			slog.String("method", method),
			slog.String("path", path),
			slog.Int("status", status),
			slog.Int64("bytes", n),
			slog.String("encoding", encoding),
			slog.Duration("duration", d),
			slog.String("remote", remote),
			slog.String("ua", ua),
		)
	}
}

// hit records a response the fast engine sent. With the access log off it
// only counts, so the fast path stays free of allocations.
func (o *serveObserver) hit(h fastserve.Hit) {
	if o.logger == nil {
		o.metrics.observe(h.Status, h.Encoding, h.Bytes, h.Duration)
		return
	}
	o.record(context.Background(), h.Method, string(h.Target), h.Status, h.Bytes, h.Encoding,
		h.Duration, h.Remote.String(), string(h.UserAgent))
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
// log) serves what the fast path does not, obs records the fast path's hits.
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
	}
	if obs != nil {
		o.Observer = obs.hit
	}
	return o
}

// statusWriter records the status and body size a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Metric label sets are fixed so counters are plain atomics: no map, no lock.
var (
	metricCodes     = [...]int{200, 204, 206, 304, 400, 404, 405, 406, 416, 500}
	metricEncodings = [...]string{"identity", "br", "gzip"}
	metricBuckets   = [...]float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1}
)

// serveMetrics are the counters /metrics exposes, hand-written in the
// Prometheus text exposition format to avoid a dependency.
type serveMetrics struct {
	buildID  string
	requests [len(metricCodes) + 1][len(metricEncodings)]atomic.Uint64 // last code row: other
	bytes    [len(metricEncodings)]atomic.Uint64
	buckets  [len(metricBuckets)]atomic.Uint64
	count    atomic.Uint64
	sumNanos atomic.Uint64
}

func (m *serveMetrics) observe(code int, encoding string, n int64, d time.Duration) {
	ci := len(metricCodes)
	for i, c := range metricCodes {
		if c == code {
			ci = i
			break
		}
	}
	ei := 0
	switch encoding {
	case "br":
		ei = 1
	case "gzip":
		ei = 2
	}
	m.requests[ci][ei].Add(1)
	m.bytes[ei].Add(uint64(n))
	s := d.Seconds()
	for i, b := range metricBuckets {
		if s <= b {
			m.buckets[i].Add(1)
		}
	}
	m.count.Add(1)
	m.sumNanos.Add(uint64(d.Nanoseconds()))
}

func (m *serveMetrics) write(w io.Writer) {
	fmt.Fprintln(w, "# HELP widgetd_build_info The build being served.")
	fmt.Fprintln(w, "# TYPE widgetd_build_info gauge")
	fmt.Fprintf(w, "widgetd_build_info{build_id=%q} 1\n", m.buildID)
	fmt.Fprintln(w, "# HELP widgetd_http_requests_total Requests answered, by status code and content coding.")
	fmt.Fprintln(w, "# TYPE widgetd_http_requests_total counter")
	for ci := range m.requests {
		code := "other"
		if ci < len(metricCodes) {
			code = strconv.Itoa(metricCodes[ci])
		}
		for ei, enc := range metricEncodings {
			if v := m.requests[ci][ei].Load(); v > 0 {
				fmt.Fprintf(w, "widgetd_http_requests_total{code=%q,encoding=%q} %d\n", code, enc, v)
			}
		}
	}
	fmt.Fprintln(w, "# HELP widgetd_http_response_bytes_total Body bytes written, by content coding.")
	fmt.Fprintln(w, "# TYPE widgetd_http_response_bytes_total counter")
	for ei, enc := range metricEncodings {
		fmt.Fprintf(w, "widgetd_http_response_bytes_total{encoding=%q} %d\n", enc, m.bytes[ei].Load())
	}
	fmt.Fprintln(w, "# HELP widgetd_http_request_duration_seconds Time spent in the handler.")
	fmt.Fprintln(w, "# TYPE widgetd_http_request_duration_seconds histogram")
	for i, b := range metricBuckets {
		fmt.Fprintf(w, "widgetd_http_request_duration_seconds_bucket{le=%q} %d\n", strconv.FormatFloat(b, 'g', -1, 64), m.buckets[i].Load())
	}
	count := m.count.Load()
	fmt.Fprintf(w, "widgetd_http_request_duration_seconds_bucket{le=\"+Inf\"} %d\n", count)
	fmt.Fprintf(w, "widgetd_http_request_duration_seconds_sum %g\n", float64(m.sumNanos.Load())/1e9)
	fmt.Fprintf(w, "widgetd_http_request_duration_seconds_count %d\n", count)
}

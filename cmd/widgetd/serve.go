package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/origin"
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
	tls             origin.TLSOptions
}

// runServe implements `widgetd serve`: load and verify dist/, then run the
// asset origin (package origin) until ctx is done or SIGINT/SIGTERM
// arrives, finishing in-flight requests before returning.
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
	srv, err := origin.Listen(ctx, origin.Options{
		Registry: reg, Addr: cfg.addr, Engine: origin.Engine(cfg.engine),
		Metrics: cfg.metrics, AccessLog: cfg.accessLog, MaxConns: cfg.maxConns,
		ShutdownTimeout: cfg.shutdownTimeout, TLS: cfg.tls, Logger: logger,
	})
	if err != nil {
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return exitError
	}
	if raddr := srv.RedirectAddr(); raddr != nil {
		fmt.Fprintf(stdout, "widgetd serve: redirecting http://%s to https\n", raddr)
	}
	fmt.Fprintf(stdout, "widgetd serve: %s on %s://%s%s [%s] (build %s, %d widgets)\n",
		cfg.dir, srv.Scheme(), srv.Addr(), reg.BasePath(), srv.Protocols(), reg.Manifest().BuildID, len(reg.Widgets()))
	if err := srv.Serve(ctx); err != nil {
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return exitError
	}
	return exitOK
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
	fs.StringVar(&cfg.engine, "engine", string(origin.DefaultEngine), "HTTP `engine` for plain HTTP: net/http (the standard library's server) or fast (opt-in: a hand-written HTTP/1.1 engine with pre-serialised responses for plain GET/HEAD, net/http for the rest; about 1.5-2x the requests per second); HTTPS always runs net/http (HTTP/2 and HTTP/1.1)")
	fs.IntVar(&cfg.maxConns, "max-conns", origin.DefaultMaxConns, "most `connections` served at once; at the limit a new connection closes the one idle longest, and waits in the listen backlog while none is idle (0: no limit)")
	addTLSFlags(fs, &cfg.tls)
	fs.DurationVar(&cfg.shutdownTimeout, "shutdown-timeout", 10*time.Second, "how long (a `duration`) to let in-flight requests finish on shutdown")
	if c, parsed := fs.parse(args); !parsed {
		return cfg, c, false
	}
	if cfg.engine != string(origin.EngineFast) && cfg.engine != string(origin.EngineNetHTTP) {
		fmt.Fprintf(stderr, "widgetd serve: --engine %q: want fast or net/http\n", cfg.engine)
		return cfg, exitUsage, false
	}
	if err := cfg.tls.Validate(); err != nil {
		fmt.Fprintf(stderr, "widgetd serve: %v\n", err)
		return cfg, exitUsage, false
	}
	return cfg, exitOK, true
}

// addTLSFlags declares the HTTPS flags of widgetd serve.
func addTLSFlags(fs *cmdFlags, f *origin.TLSOptions) {
	fs.StringVar(&f.CertFile, "tls-cert", "", "serve HTTPS with this PEM certificate chain `file` (reloaded when the file changes)")
	fs.StringVar(&f.KeyFile, "tls-key", "", "PEM private key `file` of --tls-cert")
	fs.StringVar(&f.ACMEHosts, "acme-host", "", "serve HTTPS with certificates from an ACME CA (Let's Encrypt) for these comma-separated host `names`, and only these")
	fs.StringVar(&f.ACMECache, "acme-cache", "", "`dir` for the ACME account key and certificates (default: the user cache folder's widgetd/acme)")
	fs.StringVar(&f.ACMEDirectory, "acme-directory", "", "ACME directory `URL` (default: Let's Encrypt production)")
	fs.StringVar(&f.ACMEEmail, "acme-email", "", "contact `email` for the ACME account (optional)")
	fs.StringVar(&f.ACMECA, "acme-ca", "", "PEM `file` of CA certificates to trust for the ACME directory's HTTPS (a private ACME CA); default: the system roots")
	fs.StringVar(&f.RedirectAddr, "redirect-addr", "", "also listen for plain HTTP at this `address` (e.g. :80) and redirect every request to HTTPS (and answer ACME http-01 challenges)")
}

//go:generate go run ../../cmd/widgetd build --widgets ../../widgets --out dist --retain 2 --precompress-html

// Command mcpserver is a small, real MCP server (streamable HTTP, official Go
// SDK) that embeds the example widgets' dist/ with go:embed, offers every
// widget as a UI resource under both profiles, registers one tool per widget
// that returns structuredContent for it, and serves the widget files on the
// same mux. It is the embedding walkthrough of docs/embedding.md. Because it
// serves the HTML documents over HTTP too, go generate builds with
// --precompress-html, so they have .br/.gz like the JS and CSS.
//
//	go generate ./examples/mcpserver   # rebuild dist/ from widgets/
//	go run ./examples/mcpserver --addr localhost:8000
//	go run ./cmd/widgetd types --from ./examples/mcpserver  # widgets/*/tools.gen.d.ts
//
// MCP endpoint: http://localhost:8000/mcp; widget files: /widgets/.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/gosdk"
)

//go:embed dist
var embedded embed.FS

// Config is what the example server needs besides the embedded dist.
type Config struct {
	// ConnectorURL is this server's public MCP URL as hosts connect to it;
	// Claude's ui.domain is derived from it.
	ConnectorURL string
	// TrustForwarded makes X-Forwarded-* headers count when computing asset
	// URLs (enable behind a tunnel or reverse proxy).
	TrustForwarded bool
	// Logger receives the registry's load line.
	Logger *slog.Logger
}

// Dist returns the embedded dist/ as an fs.FS rooted at the manifest.
func Dist() fs.FS {
	sub, err := fs.Sub(embedded, "dist")
	if err != nil {
		panic(err) // "dist" is a valid constant path: cannot happen
	}
	return sub
}

// NewHandler loads dist and returns the server's mux: the MCP endpoint at
// /mcp, the widget files under /widgets/, and /healthz. ctx bounds the
// start-up tool audit, which lists the tools over an in-memory session.
func NewHandler(ctx context.Context, dist fs.FS, cfg Config) (http.Handler, *assets.Registry, error) {
	s, reg, err := NewServer(ctx, dist, cfg)
	if err != nil {
		return nil, nil, err
	}
	return newMux(s, reg), reg, nil
}

// NewServer loads dist and returns the MCP server with the widgets'
// resources and one tool per widget, after auditing the tools as tools/list
// sends them (ctx bounds that audit).
func NewServer(ctx context.Context, dist fs.FS, cfg Config) (*mcp.Server, *assets.Registry, error) {
	opts := []assets.Option{assets.WithBasePath("/widgets")}
	if cfg.Logger != nil {
		opts = append(opts, assets.WithLogger(cfg.Logger))
	}
	if cfg.ConnectorURL != "" {
		opts = append(opts, assets.WithConnectorURL(cfg.ConnectorURL))
	}
	reg, err := assets.Load(dist, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("example server: %w", err)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "widgetd-example", Version: "0.1.0"},
		&mcp.ServerOptions{Capabilities: gosdk.AddExtension(nil)})
	gosdk.AddResources(s, reg, &gosdk.Options{
		AssetBase: &assets.BaseURL{TrustForwarded: cfg.TrustForwarded, Path: "/widgets"},
	})
	if err := addTools(s, reg); err != nil {
		return nil, nil, err
	}
	if err := auditTools(ctx, s, reg); err != nil {
		return nil, nil, err
	}
	return s, reg, nil
}

// newMux serves s at /mcp, the widget files under /widgets/, and /healthz.
func newMux(s *mcp.Server, reg *assets.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	mux.Handle("/widgets/", reg.Handler())
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	return mux
}

func main() {
	addr := flag.String("addr", "localhost:8000", "listen address")
	connector := flag.String("connector-url", "", "public MCP URL hosts connect to (Claude's ui.domain derives from it)")
	trust := flag.Bool("trust-forwarded", false, "trust X-Forwarded-* headers (behind a tunnel or proxy)")
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*addr, Config{ConnectorURL: *connector, TrustForwarded: *trust, Logger: logger}); err != nil {
		logger.Error("exit", "err", err)
		os.Exit(1)
	}
}

func run(addr string, cfg Config) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, reg, err := NewServer(ctx, Dist(), cfg)
	if err != nil {
		return err
	}
	// Started by `widgetd types --from`: serve the tool list over stdio, no listening.
	if served, err := gosdk.ServeTypes(ctx, s); served {
		return err
	}
	h := newMux(s, reg)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	cfg.Logger.Info("listening", "mcp", "http://"+ln.Addr().String()+"/mcp", "widgets", "http://"+ln.Addr().String()+"/widgets/")
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

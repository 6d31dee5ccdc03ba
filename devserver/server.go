package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/internal/publicurl"
)

// DefaultAddr is the preview listener address of `widgetd dev`.
const DefaultAddr = "127.0.0.1:5173"

// Options configures a Server.
type Options struct {
	// Root is the project root holding widgetd.json; default the working directory.
	Root string
	// WidgetsDir holds one folder per widget; default the project's setting.
	WidgetsDir string
	// Skip names widgets the preview leaves out (bundler.Options.Skip).
	Skip []string
	// Addr is the preview listener (pages, live-reload events, built files);
	// default DefaultAddr. Port 0 picks a free port.
	Addr string
	// Listener, when set, is the preview listener already open on Addr
	// (from ListenPreview); New uses it instead of listening on Addr.
	Listener net.Listener
	// SandboxAddr is the listener of the sandbox origin that serves widget
	// documents under their CSP. Default: Addr's host with the next port
	// (a free port when Addr's port is 0 or the next one is taken).
	SandboxAddr string
	// PublicURL is the URL the preview origin is reached at through a tunnel
	// or reverse proxy (e.g. https://abc.trycloudflare.com). Set, widgets are
	// built in external mode with their JS/CSS loaded from it, so a remote
	// host such as ChatGPT can load them.
	PublicURL string
	// SandboxURL is the URL the sandbox origin is reached at when it is
	// proxied too; default http://<SandboxAddr>.
	SandboxURL string
	// MCPURL, when set, is a Streamable HTTP MCP server that the widgets'
	// tools/call requests are forwarded to (with the official Go SDK client).
	MCPURL string
	// Log receives the terminal output: rebuilds, build errors, CSP
	// violations. Default os.Stderr.
	Log io.Writer
	// AsShipped builds the widgets as `widgetd build` does: React widgets
	// without React Refresh even when the project has react-refresh
	// (docs/dev.md, "Edits"), and each widget with the bridge level a build
	// gives it (docs/bridge.md, "Bridge levels") instead of the preview's
	// full bridge. `widgetd test` sets it, as it renders the widgets as
	// they ship.
	AsShipped bool
	// PollInterval is the watcher's poll period; default DefaultPollInterval.
	PollInterval time.Duration
	// AllowedHosts are extra host names (without port) that requests may
	// carry in their Host header, e.g. a LAN name. Always allowed: localhost
	// and *.localhost, the loopback addresses, the hosts of Addr,
	// SandboxAddr, PublicURL and SandboxURL, and, when a listener is bound
	// to a wildcard address, any IP address. Others get 403 (DNS rebinding).
	AllowedHosts []string
	// TrustForwarded makes the X-Forwarded-Prefix, X-Forwarded-Proto and
	// X-Forwarded-Host headers count (page links, the origin a request was
	// addressed to). Set it only behind a proxy that sets them and drops
	// the client's own; otherwise any client could claim them.
	TrustForwarded bool
}

// Server is a running `widgetd dev`: two listeners, one Builder, the latest
// build in memory and the open live-reload streams.
type Server struct {
	opts          Options
	log           *syncWriter
	builder       *bundler.Builder
	watch         *watcher
	previewLn     net.Listener
	sandboxLn     net.Listener
	previewOrigin string // http://host:port of the preview listener
	sandboxURL    string // where the preview page points the widget iframe
	widgetsDir    string
	mcp           *forwarder

	mu    sync.RWMutex
	state *BuildEvent
	out   *bundler.Output

	hub hub

	// refreshRuntime is the React Refresh runtime <script> appended to
	// widget documents, "" when the project has no react-refresh (hmr.go).
	refreshRuntime string

	hosts   hostPolicy    // Host headers both listeners answer
	reports *reportLimits // CSP violations already printed (per build), rate limit
}

// syncWriter serialises writes to the terminal from several goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) printf(format string, args ...any) {
	fmt.Fprintf(s, format, args...)
}

// New opens both listeners and prepares the Builder; nothing is built until
// Run. The preview origin is added to every widget's CSP (resourceDomains
// and connectDomains) for this dev build only, so a widget may reach the dev
// server; `widgetd build` output never carries it.
func New(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	if opts.PublicURL != "" {
		pu, err := publicurl.Normalize(opts.PublicURL)
		if err != nil {
			closeIfSet(opts.Listener)
			return nil, fmt.Errorf("--public-url: %w", err)
		}
		opts.PublicURL = pu
	}
	if opts.MCPURL != "" {
		if u, err := url.Parse(opts.MCPURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			closeIfSet(opts.Listener)
			return nil, fmt.Errorf("--mcp %q must be an http(s) URL of a Streamable HTTP MCP endpoint", opts.MCPURL)
		}
	}
	s := &Server{opts: opts, log: &syncWriter{w: opts.Log}, reports: newReportLimits()}
	var err error
	if s.previewLn = opts.Listener; s.previewLn == nil {
		if s.previewLn, err = net.Listen("tcp", opts.Addr); err != nil {
			return nil, fmt.Errorf("listen on %s: %w", opts.Addr, err)
		}
	}
	if s.sandboxLn, err = listenSandbox(opts.SandboxAddr, s.previewLn.Addr().(*net.TCPAddr), opts.Addr); err != nil {
		s.previewLn.Close()
		return nil, err
	}
	s.previewOrigin = "http://" + originHost(s.previewLn.Addr().(*net.TCPAddr), opts.Addr)
	s.sandboxURL = "http://" + originHost(s.sandboxLn.Addr().(*net.TCPAddr), opts.Addr)
	if opts.SandboxURL != "" {
		su, err := publicurl.Normalize(opts.SandboxURL)
		if err != nil {
			s.closeListeners()
			return nil, fmt.Errorf("--sandbox-url: %w", err)
		}
		s.sandboxURL = su
	}
	s.hosts = newHostPolicy([]string{opts.Addr, opts.SandboxAddr, s.previewOrigin[len("http://"):], s.sandboxLn.Addr().String()},
		[]string{opts.PublicURL, s.sandboxURL}, opts.AllowedHosts)
	if err := s.newBuilder(); err != nil {
		s.closeListeners()
		return nil, fmt.Errorf("dev server: %w", err)
	}
	s.watch = &watcher{dirs: []string{s.widgetsDir}, files: append([]string{filepath.Join(s.builder.Root(), layout.ProjectConfigFile)}, s.builder.EnvFiles()...)}
	if opts.MCPURL != "" {
		s.mcp = &forwarder{url: opts.MCPURL}
	}
	return s, nil
}

// newBuilder makes the Builder, with React Refresh when the project has
// react-refresh and @babel/core (hmr.go): that needs the widgets folder,
// which the first Builder resolves.
func (s *Server) newBuilder() error {
	bo := bundler.Options{
		Root:          s.opts.Root,
		WidgetsDir:    s.opts.WidgetsDir,
		PublicURL:     s.opts.PublicURL,
		NoCompress:    true,
		DevOrigin:     s.previewOrigin,
		Skip:          s.opts.Skip,
		SourceMaps:    true, // CSP violations and errors name the source line
		ShippedBridge: s.opts.AsShipped,
	}
	b, err := bundler.New(bo)
	if err != nil {
		return err
	}
	s.widgetsDir = b.WidgetsDir()
	if s.opts.AsShipped {
		s.builder = b
		return nil
	}
	if s.refreshRuntime, err = reactRefresh(s.widgetsDir); s.refreshRuntime == "" {
		if err != nil {
			s.log.printf("widgetd dev: React Refresh off: %v; edits reload the widget\n", err)
		}
		s.builder = b
		return nil
	}
	b.Close()
	bo.ReactRefresh = true
	if s.builder, err = bundler.New(bo); err != nil {
		return err
	}
	s.log.printf("widgetd dev: React Refresh on (react-refresh found): edits to components keep their state\n")
	return nil
}

// listenSandbox opens the sandbox-origin listener: addr when given, else the
// preview host with the next port, else a free port on the preview host.
func listenSandbox(addr string, preview *net.TCPAddr, previewAddr string) (net.Listener, error) {
	if addr != "" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("listen on sandbox address %s: %w", addr, err)
		}
		return ln, nil
	}
	host, _, err := net.SplitHostPort(previewAddr)
	if err != nil {
		host = preview.IP.String()
	}
	_, port, _ := net.SplitHostPort(previewAddr)
	if port != "0" && preview.Port < 65535 {
		if ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(preview.Port+1))); err == nil {
			return ln, nil
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, fmt.Errorf("listen for the sandbox origin: %w", err)
	}
	return ln, nil
}

// originHost is host:port for URLs of a listener: the configured host name
// (so "localhost" stays "localhost") with the port actually bound, and
// 127.0.0.1 for wildcard binds.
func originHost(a *net.TCPAddr, configured string) string {
	host, _, err := net.SplitHostPort(configured)
	if err != nil || host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
		if a.IP.To4() == nil && !a.IP.IsUnspecified() {
			host = a.IP.String()
		}
	}
	return net.JoinHostPort(host, strconv.Itoa(a.Port))
}

// closeIfSet closes a listener handed to New that New will not use.
func closeIfSet(ln net.Listener) {
	if ln != nil {
		ln.Close()
	}
}

func (s *Server) closeListeners() {
	if s.previewLn != nil {
		s.previewLn.Close()
	}
	if s.sandboxLn != nil {
		s.sandboxLn.Close()
	}
}

// PreviewURL is the local URL of the preview index page.
func (s *Server) PreviewURL() string { return s.previewOrigin + "/" }

// SandboxURL is the URL the widget iframes are loaded from.
func (s *Server) SandboxURL() string { return s.sandboxURL }

// Run builds once, then watches, rebuilds and serves until ctx is done. It
// always returns a non-nil error: ctx's error after a clean shutdown.
func (s *Server) Run(ctx context.Context) error {
	defer s.builder.Close()
	defer s.mcp.close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	preview := &http.Server{Handler: s.previewHandler(), ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	sandbox := &http.Server{Handler: s.sandboxHandler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 2)
	go func() { errc <- preview.Serve(s.previewLn) }()
	go func() { errc <- sandbox.Serve(s.sandboxLn) }()
	// The URLs are printed once, by the caller (PreviewURL, PublicURL,
	// PublicMCPURL); the log only says what is not printed there.
	if s.mcp != nil && s.PublicMCPURL() == "" {
		s.log.printf("widgetd dev: forwarding widget tools/call to %s\n", s.opts.MCPURL)
	}
	// The listeners are bound, so early requests wait for the first build
	// rather than fail.
	prev := s.watch.scan()
	s.rebuild(ctx, nil)

	done := make(chan struct{})
	go func() {
		defer close(done)
		s.watch.watch(ctx, s.opts.PollInterval, prev, func(paths []string) { s.rebuild(ctx, paths) })
	}()

	var err error
	select {
	case <-ctx.Done():
		err = ctx.Err()
	case err = <-errc:
		err = fmt.Errorf("dev server: %w", err)
	}
	cancel()
	s.hub.closeAll()
	shut, cancelShut := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancelShut()
	_ = preview.Shutdown(shut)
	_ = sandbox.Shutdown(shut)
	<-done
	if errors.Is(err, http.ErrServerClosed) {
		err = context.Canceled
	}
	return err
}

// Subscribe returns a channel that receives every build event from now on
// and a function that unsubscribes. It is how tests and the devloop
// benchmark observe rebuilds. The channel is buffered: a slow reader misses
// intermediate events but always gets the latest build's, and it sees the
// channel close when the server shuts down, or at once when subscribing
// after shutdown.
func (s *Server) Subscribe() (<-chan *BuildEvent, func()) {
	return s.hub.subscribe()
}

// State returns the latest build event (nil before the first build ends).
func (s *Server) State() *BuildEvent {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state
}

// ConfigFile is the widget.json of a widget in the current build (empty when
// the widget is not in it). Its folder holds the widget's fixtures.
func (s *Server) ConfigFile(name string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.out == nil {
		return ""
	}
	return s.out.ConfigFiles[name]
}

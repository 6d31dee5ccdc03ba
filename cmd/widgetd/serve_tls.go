package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/internal/connlimit"
)

// tlsFlags are the HTTPS settings of widgetd serve: certificate files, or
// automatic certificates from an ACME CA, plus an optional plain-HTTP
// listener that redirects to HTTPS.
type tlsFlags struct {
	certFile, keyFile string
	acmeHosts         string // comma-separated allowlist; non-empty turns ACME on
	acmeCache         string
	acmeDirectory     string
	acmeEmail         string
	acmeCA            string // PEM roots to trust for the ACME directory
	redirectAddr      string
}

// enabled reports whether serve speaks HTTPS.
func (f tlsFlags) enabled() bool { return f.certFile != "" || f.keyFile != "" || f.acmeHosts != "" }

// validate checks the flag combination; the error is a usage error.
func (f tlsFlags) validate() error {
	switch {
	case (f.certFile == "") != (f.keyFile == ""):
		return errors.New("--tls-cert and --tls-key go together: give both files")
	case f.certFile != "" && f.acmeHosts != "":
		return errors.New("--tls-cert and --acme-host exclude each other: use certificate files or ACME, not both")
	case f.acmeHosts == "" && (f.acmeCache != "" || f.acmeDirectory != "" || f.acmeEmail != "" || f.acmeCA != ""):
		return errors.New("--acme-cache, --acme-directory, --acme-email and --acme-ca need --acme-host (the names to get certificates for)")
	case f.redirectAddr != "" && !f.enabled():
		return errors.New("--redirect-addr redirects to HTTPS: it needs --tls-cert/--tls-key or --acme-host")
	}
	for _, h := range f.hosts() {
		if strings.ContainsAny(h, "/:* ") || net.ParseIP(h) != nil {
			return fmt.Errorf("--acme-host %q: want DNS names such as widgets.example.com, comma-separated (no ports, wildcards or IP addresses)", h)
		}
	}
	return nil
}

// hosts returns the ACME host allowlist.
func (f tlsFlags) hosts() []string {
	var out []string
	for _, h := range strings.Split(f.acmeHosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, strings.ToLower(h))
		}
	}
	return out
}

// httpsSetup is what serve needs to speak HTTPS: the TLS config for the
// main listener and the handler of the redirect listener (which also
// answers ACME http-01 challenges when ACME is on).
type httpsSetup struct {
	config   *tls.Config
	redirect func(httpsPort string) http.Handler
}

// newHTTPSSetup builds the TLS config from the flags: a reloading
// certificate pair or an autocert manager. HTTP/2 and HTTP/1.1 are offered
// through ALPN (and acme-tls/1 for the TLS-ALPN-01 challenge).
func newHTTPSSetup(f tlsFlags, logger *slog.Logger) (*httpsSetup, error) {
	cfg := &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{"h2", "http/1.1"},
	}
	if f.certFile != "" {
		r, err := newCertReloader(f.certFile, f.keyFile, logger)
		if err != nil {
			return nil, err
		}
		cfg.GetCertificate = r.GetCertificate
		return &httpsSetup{config: cfg, redirect: func(port string) http.Handler { return redirectToHTTPS(port) }}, nil
	}
	m, err := newACMEManager(f)
	if err != nil {
		return nil, err
	}
	cfg.GetCertificate = m.GetCertificate
	cfg.NextProtos = append(cfg.NextProtos, acme.ALPNProto)
	return &httpsSetup{config: cfg, redirect: func(port string) http.Handler { return m.HTTPHandler(redirectToHTTPS(port)) }}, nil
}

// newACMEManager returns an autocert manager for the allowlisted hosts,
// caching account key and certificates in --acme-cache.
func newACMEManager(f tlsFlags) (*autocert.Manager, error) {
	cache := f.acmeCache
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("--acme-cache not given and no user cache folder: %w", err)
		}
		cache = filepath.Join(dir, "widgetd", "acme")
	}
	client := &acme.Client{DirectoryURL: f.acmeDirectory}
	if client.DirectoryURL == "" {
		client.DirectoryURL = autocert.DefaultACMEDirectory
	}
	if f.acmeCA != "" {
		pem, err := os.ReadFile(f.acmeCA)
		if err != nil {
			return nil, fmt.Errorf("--acme-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--acme-ca %s: no PEM certificate in the file", f.acmeCA)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
		client.HTTPClient = &http.Client{Transport: tr, Timeout: time.Minute}
	}
	return &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      autocert.DirCache(cache),
		HostPolicy: autocert.HostWhitelist(f.hosts()...),
		Email:      f.acmeEmail,
		Client:     client,
	}, nil
}

// redirectToHTTPS answers every request with a 308 to the same host and
// target on https (on httpsPort unless it is 443). A Host that is not a
// plain host name or address gets a 400, so the redirect cannot be steered
// to another URL shape.
func redirectToHTTPS(httpsPort string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !validRedirectHost(host) {
			http.Error(w, "bad Host", http.StatusBadRequest)
			return
		}
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		if httpsPort != "443" {
			host += ":" + httpsPort
		}
		target := r.URL.RequestURI()
		if !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "//") {
			target = "/" // "*" (OPTIONS *) or a path that would read as a host
		}
		// A request target has no fragment, but a hostile client can send a
		// raw '#' (net/http keeps it in the query); escaped, it stays part
		// of the target instead of starting a fragment in the Location.
		target = strings.ReplaceAll(target, "#", "%23")
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, "https://"+host+target, http.StatusPermanentRedirect)
	})
}

// validRedirectHost accepts DNS names and IP literals only.
func validRedirectHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	if net.ParseIP(h) != nil {
		return true
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// tlsServer serves HTTPS (HTTP/2 and HTTP/1.1) with net/http.
type tlsServer struct{ *http.Server }

// Serve runs ServeTLS with the server's TLSConfig.
func (s tlsServer) Serve(ln net.Listener) error { return s.ServeTLS(ln, "", "") }

// startRedirect runs the HTTP→HTTPS redirect listener on addr until ctx is
// done. It returns the address it listens on.
func startRedirect(ctx context.Context, addr string, h http.Handler, logger *slog.Logger, lim serverLimits, maxConns int) (net.Addr, func(context.Context) error, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("--redirect-addr: %w", err)
	}
	srv := newHTTPServer(ctx, h, logger, lim)
	go func() { _ = srv.Serve(limitConns(ln, maxConns, logger, "redirect")) }()
	return ln.Addr(), srv.Shutdown, nil
}

// defaultMaxConns is --max-conns' default: far above what a CDN's origin
// pulls need, far below the descriptors Go raises its limit to.
const defaultMaxConns = 4096

// addTLSFlags declares the HTTPS flags of widgetd serve.
func addTLSFlags(fs *cmdFlags, f *tlsFlags) {
	fs.StringVar(&f.certFile, "tls-cert", "", "serve HTTPS with this PEM certificate chain `file` (reloaded when the file changes)")
	fs.StringVar(&f.keyFile, "tls-key", "", "PEM private key `file` of --tls-cert")
	fs.StringVar(&f.acmeHosts, "acme-host", "", "serve HTTPS with certificates from an ACME CA (Let's Encrypt) for these comma-separated host `names`, and only these")
	fs.StringVar(&f.acmeCache, "acme-cache", "", "`dir` for the ACME account key and certificates (default: the user cache folder's widgetd/acme)")
	fs.StringVar(&f.acmeDirectory, "acme-directory", "", "ACME directory `URL` (default: Let's Encrypt production)")
	fs.StringVar(&f.acmeEmail, "acme-email", "", "contact `email` for the ACME account (optional)")
	fs.StringVar(&f.acmeCA, "acme-ca", "", "PEM `file` of CA certificates to trust for the ACME directory's HTTPS (a private ACME CA); default: the system roots")
	fs.StringVar(&f.redirectAddr, "redirect-addr", "", "also listen for plain HTTP at this `address` (e.g. :80) and redirect every request to HTTPS (and answer ACME http-01 challenges)")
}

// limitConns applies --max-conns to a listener.
func limitConns(ln net.Listener, max int, logger *slog.Logger, name string) net.Listener {
	return connlimit.New(ln, max, logger, name)
}

// newServeServer returns the server for the main listener (whose address
// is addr) and its URL scheme. With HTTPS flags it is net/http over TLS
// (HTTP/2 and HTTP/1.1) and, with --redirect-addr, a second listener that
// redirects to it; the returned func stops that listener.
func newServeServer(ctx context.Context, reg *assets.Registry, cfg serveConfig, logger *slog.Logger, addr net.Addr, stdout io.Writer) (originServer, string, func(), error) {
	lim := defaultServerLimits()
	if !cfg.tls.enabled() {
		return newOriginServer(ctx, reg, cfg, logger, lim), "http", func() {}, nil
	}
	setup, err := newHTTPSSetup(cfg.tls, logger)
	if err != nil {
		return nil, "", nil, err
	}
	srv := newHTTPServer(ctx, newServeHandler(reg, cfg, logger), logger, lim)
	srv.TLSConfig = setup.config
	stop := func() {}
	if cfg.tls.redirectAddr != "" {
		_, port, _ := net.SplitHostPort(addr.String())
		raddr, shutdown, err := startRedirect(ctx, cfg.tls.redirectAddr, setup.redirect(port), logger, lim, cfg.maxConns)
		if err != nil {
			return nil, "", nil, err
		}
		fmt.Fprintf(stdout, "widgetd serve: redirecting http://%s to https\n", raddr)
		stop = func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			defer cancel()
			_ = shutdown(sctx)
		}
	}
	return tlsServer{srv}, "https", stop, nil
}

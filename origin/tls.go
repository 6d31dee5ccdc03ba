package origin

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"github.com/widgetd/widgetd/origin/internal/connlimit"
)

// TLSOptions are the origin's HTTPS settings: a certificate pair from files,
// or automatic certificates from an ACME CA, plus an optional plain-HTTP
// listener that redirects to HTTPS. The zero value serves plain HTTP. Error
// messages name the matching `widgetd serve` flags (--tls-cert for CertFile,
// and so on), since that is where most of these settings come from.
type TLSOptions struct {
	// CertFile and KeyFile are a PEM certificate chain and its private key,
	// loaded again when either file changes.
	CertFile, KeyFile string
	// ACMEHosts is a comma-separated allowlist of DNS names to get
	// certificates for; non-empty turns ACME on.
	ACMEHosts string
	// ACMECache is the folder for the ACME account key and certificates
	// (default: the user cache folder's widgetd/acme).
	ACMECache string
	// ACMEDirectory is the ACME directory URL (default: Let's Encrypt
	// production).
	ACMEDirectory string
	// ACMEEmail is the optional contact address of the ACME account.
	ACMEEmail string
	// ACMECA is a PEM file of CA certificates to trust for the ACME
	// directory's HTTPS (a private ACME CA); default: the system roots.
	ACMECA string
	// RedirectAddr, when set, is a plain-HTTP listen address whose every
	// request is redirected to HTTPS (and ACME http-01 challenges answered).
	RedirectAddr string
}

// Enabled reports whether these options make the origin speak HTTPS.
func (f TLSOptions) Enabled() bool { return f.CertFile != "" || f.KeyFile != "" || f.ACMEHosts != "" }

// Validate checks that the settings can work together: both certificate
// files or none, files or ACME but not both, ACME settings only with ACME
// hosts, a redirect only with HTTPS, and host names that are DNS names.
func (f TLSOptions) Validate() error {
	switch {
	case (f.CertFile == "") != (f.KeyFile == ""):
		return errors.New("--tls-cert and --tls-key go together: give both files")
	case f.CertFile != "" && f.ACMEHosts != "":
		return errors.New("--tls-cert and --acme-host exclude each other: use certificate files or ACME, not both")
	case f.ACMEHosts == "" && (f.ACMECache != "" || f.ACMEDirectory != "" || f.ACMEEmail != "" || f.ACMECA != ""):
		return errors.New("--acme-cache, --acme-directory, --acme-email and --acme-ca need --acme-host (the names to get certificates for)")
	case f.RedirectAddr != "" && !f.Enabled():
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
func (f TLSOptions) hosts() []string {
	var out []string
	for _, h := range strings.Split(f.ACMEHosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, strings.ToLower(h))
		}
	}
	return out
}

// httpsSetup is what the origin needs to speak HTTPS: the TLS config for the
// main listener and the handler of the redirect listener (which also
// answers ACME http-01 challenges when ACME is on).
type httpsSetup struct {
	config   *tls.Config
	redirect func(httpsPort string) http.Handler
}

// newHTTPSSetup builds the TLS config from f: a reloading
// certificate pair or an autocert manager. HTTP/2 and HTTP/1.1 are offered
// through ALPN (and acme-tls/1 for the TLS-ALPN-01 challenge).
func newHTTPSSetup(f TLSOptions, logger *slog.Logger) (*httpsSetup, error) {
	cfg := &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{"h2", "http/1.1"},
	}
	if f.CertFile != "" {
		r, err := newCertReloader(f.CertFile, f.KeyFile, logger)
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
// caching account key and certificates in f.ACMECache.
func newACMEManager(f TLSOptions) (*autocert.Manager, error) {
	cache := f.ACMECache
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("--acme-cache not given and no user cache folder: %w", err)
		}
		cache = filepath.Join(dir, "widgetd", "acme")
	}
	client := &acme.Client{DirectoryURL: f.ACMEDirectory}
	if client.DirectoryURL == "" {
		client.DirectoryURL = autocert.DefaultACMEDirectory
	}
	if f.ACMECA != "" {
		pem, err := os.ReadFile(f.ACMECA)
		if err != nil {
			return nil, fmt.Errorf("--acme-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--acme-ca %s: no PEM certificate in the file", f.ACMECA)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
		client.HTTPClient = &http.Client{Transport: tr, Timeout: time.Minute}
	}
	return &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      autocert.DirCache(cache),
		HostPolicy: autocert.HostWhitelist(f.hosts()...),
		Email:      f.ACMEEmail,
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

// redirectListener is the plain-HTTP listener that redirects to HTTPS.
type redirectListener struct {
	ln  net.Listener
	srv *http.Server
}

// listenRedirect listens on addr for the HTTP→HTTPS redirect, answering
// with h under the same limits and connection cap as the main listener.
func listenRedirect(ctx context.Context, addr string, h http.Handler, logger *slog.Logger, lim serverLimits) (*redirectListener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--redirect-addr: %w", err)
	}
	return &redirectListener{ln: ln, srv: newHTTPServer(ctx, h, logger, lim)}, nil
}

// serve runs the redirect until stop.
func (r *redirectListener) serve(maxConns int, logger *slog.Logger) {
	_ = r.srv.Serve(connlimit.New(r.ln, maxConns, logger, "redirect"))
}

// stop shuts the redirect down, giving in-flight redirects a second.
func (r *redirectListener) stop(ctx context.Context) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_ = r.srv.Shutdown(sctx)
}

// newTLSServer returns the HTTPS server for the registry (net/http, HTTP/2
// and HTTP/1.1) and, with RedirectAddr, the listener that redirects to it;
// port is the main listener's.
func newTLSServer(ctx context.Context, opts Options, logger *slog.Logger, lim serverLimits, port string) (originServer, *redirectListener, error) {
	setup, err := newHTTPSSetup(opts.TLS, logger)
	if err != nil {
		return nil, nil, err
	}
	srv := newHTTPServer(ctx, newServeHandler(opts.Registry, opts, logger), logger, lim)
	srv.TLSConfig = setup.config
	if opts.TLS.RedirectAddr == "" {
		return tlsServer{srv}, nil, nil
	}
	r, err := listenRedirect(ctx, opts.TLS.RedirectAddr, setup.redirect(port), logger, lim)
	if err != nil {
		return nil, nil, err
	}
	return tlsServer{srv}, r, nil
}

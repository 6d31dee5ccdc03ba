package devserver

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/widgetd/widgetd/internal/publicurl"
)

// The dev server runs on a developer's laptop, next to a browser that visits
// hostile sites. A page on rebind.evil.example can point its DNS name at
// 127.0.0.1 after loading (DNS rebinding); the browser then treats the dev
// server as that page's own origin, so Origin checks alone cannot tell the
// requests apart. Only the Host header can: every request on both
// listeners must name a host this server is reached at.

// hostPolicy is the allowlist of Host header values of both listeners.
type hostPolicy struct {
	// names are lower-case host names (and IP literals) without port.
	names map[string]bool
	// anyIP accepts every IP literal: set when a listener is bound to a
	// wildcard address, since any address that reached it is one of this
	// machine's. An IP literal cannot be rebound by DNS.
	anyIP bool
}

// newHostPolicy allows the loopback names, the literal loopback addresses,
// the hosts of the listeners' configured addresses, of the public and
// sandbox URLs, and the extra names the user allowed (--allowed-hosts).
func newHostPolicy(addrs, urls, extra []string) hostPolicy {
	p := hostPolicy{names: map[string]bool{}}
	for _, a := range addrs {
		if a == "" {
			continue
		}
		host, _, err := net.SplitHostPort(a)
		if err != nil {
			host = a
		}
		host = normalHost(host)
		if ip, err := netip.ParseAddr(host); host == "" || (err == nil && ip.IsUnspecified()) {
			p.anyIP = true
			continue
		}
		p.names[host] = true
	}
	for _, u := range urls {
		if pu, err := url.Parse(u); err == nil && pu.Hostname() != "" {
			p.names[normalHost(pu.Hostname())] = true
		}
	}
	for _, h := range extra {
		if h = normalHost(h); h != "" {
			p.names[h] = true
		}
	}
	return p
}

// normalHost lower-cases a host name and drops IPv6 brackets and a trailing
// dot ("localhost." names the same host as "localhost").
func normalHost(h string) string {
	h = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(h), "["), "]")
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// allows reports whether a request's Host header (host or host:port) names
// this server.
func (p hostPolicy) allows(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = normalHost(host)
	switch {
	case host == "":
		return false
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		return true // RFC 6761: always loopback, browsers never resolve it by DNS
	case p.names[host]:
		return true
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.IsLoopback() || p.anyIP
	}
	return false
}

// guardHost answers 403 to any request whose Host this server does not go by.
func (s *Server) guardHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hosts.allows(r.Host) {
			host, _, err := net.SplitHostPort(r.Host)
			if err != nil {
				host = r.Host
			}
			http.Error(w, fmt.Sprintf("widgetd dev: Host %s is not allowed (DNS rebinding protection); open %s, or start widgetd dev with --allowed-hosts %s",
				quoteForTerminal(r.Host), s.PreviewURL(), quoteForTerminal(normalHost(host))), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin refuses a state-changing request that a browser sent from
// another origin: Sec-Fetch-Site other than same-origin/none, or an Origin
// that is neither the origin the request was addressed to (its Host, already
// allowed) nor the preview's public origin. A request with neither header
// does not come from a browser page and passes.
func (s *Server) sameOrigin(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := s.checkOrigin(r); err != nil {
			writeJSON(w, http.StatusForbidden, map[string]string{"error": err.Error()})
			return
		}
		next(w, r)
	}
}

func (s *Server) checkOrigin(r *http.Request) error {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return fmt.Errorf("cross-origin request refused (Sec-Fetch-Site: %s); only the preview page may call this endpoint", quoteForTerminal(site))
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	if o := canonicalOrigin(origin); o != "" && (o == s.addressedOrigin(r) || o == canonicalOrigin(s.previewOrigin) ||
		(s.opts.PublicURL != "" && o == canonicalOrigin(publicurl.Origin(s.opts.PublicURL)))) {
		return nil
	}
	return fmt.Errorf("request from origin %s refused; only the preview page (%s) may call this endpoint", quoteForTerminal(origin), s.previewOrigin)
}

// addressedOrigin is the origin a request was addressed to: its Host with
// the scheme of the connection, or, with TrustForwarded, the proxy's
// X-Forwarded-Proto and X-Forwarded-Host.
func (s *Server) addressedOrigin(r *http.Request) string {
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if s.opts.TrustForwarded {
		if p := strings.ToLower(r.Header.Get("X-Forwarded-Proto")); p == "http" || p == "https" {
			scheme = p
		}
		if h := r.Header.Get("X-Forwarded-Host"); h != "" {
			host = strings.TrimSpace(strings.Split(h, ",")[0])
		}
	}
	return canonicalOrigin(scheme + "://" + host)
}

// canonicalOrigin is scheme://host[:port] lower-cased with the default port
// dropped, or "" when o is not an http(s) origin.
func canonicalOrigin(o string) string {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	host, port := normalHost(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return strings.ToLower(u.Scheme) + "://" + host
}

// cors sets the CORS headers of a read-only answer: a built file, the
// manifest, a widget document or the event stream. Allowed are the sandbox
// origin (widget documents load their files from the preview origin), the
// preview origin itself, and loopback origins (a host on this machine
// rendering a dev shell, see assets.WithDev). With --public-url the build is
// published through the tunnel anyway, and remote hosts (ChatGPT, Claude)
// load it, and run the dev shell, on their own sandbox origins, so any
// Origin is echoed; never "*". State-changing endpoints never get CORS.
func (s *Server) cors(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Add("Vary", "Origin")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	origin := r.Header.Get("Origin")
	if origin == "" {
		return
	}
	o := canonicalOrigin(origin)
	if o == "" {
		return
	}
	if s.opts.PublicURL != "" || o == canonicalOrigin(s.sandboxURL) || o == canonicalOrigin(s.previewOrigin) || isLoopbackOrigin(o) {
		h.Set("Access-Control-Allow-Origin", o)
	}
}

// isLoopbackOrigin reports whether a canonical origin names this machine
// (localhost, *.localhost or a loopback address), which no DNS rebinding
// can claim.
func isLoopbackOrigin(o string) bool {
	u, err := url.Parse(o)
	if err != nil {
		return false
	}
	h := normalHost(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

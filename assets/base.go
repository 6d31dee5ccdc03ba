package assets

import (
	"net/http"
	"path"
	"strings"
)

// BaseURL derives, per request, the base URL (origin plus path) at which a
// server that serves dist/ itself is reachable, for Client.AssetBase. Behind
// tunnels and reverse proxies the Host the server sees is not the one the
// browser uses, so forwarded headers may be trusted explicitly.
type BaseURL struct {
	// Override, when set, is returned as is: the explicit public base URL.
	Override string
	// TrustForwarded makes X-Forwarded-Proto, X-Forwarded-Host and
	// X-Forwarded-Prefix count. Enable it only behind a proxy that sets
	// (or strips) them; otherwise any client can choose the URLs.
	TrustForwarded bool
	// Path is where the asset handler is mounted on this server, e.g.
	// "/widgets" (the Registry's base path); it is appended after the
	// forwarded prefix.
	Path string
}

// Resolve returns the base URL for r without a trailing slash.
func (b BaseURL) Resolve(r *http.Request) string {
	return b.FromHeader(r.Header, r.Host, r.TLS != nil)
}

// FromHeader is Resolve for transports that expose only the request header
// (the official go-sdk's RequestExtra.Header): host is the request's Host
// ("" if unknown) and isTLS whether it arrived over TLS. It returns "" when no
// host is known, meaning "use the default".
func (b BaseURL) FromHeader(h http.Header, host string, isTLS bool) string {
	if b.Override != "" {
		return strings.TrimRight(b.Override, "/")
	}
	scheme := "http"
	if isTLS {
		scheme = "https"
	}
	prefix := ""
	if b.TrustForwarded {
		if p := firstValue(h.Get("X-Forwarded-Proto")); p == "http" || p == "https" {
			scheme = p
		}
		if fh := firstValue(h.Get("X-Forwarded-Host")); validHost(fh) {
			host = fh
		}
		if fp := firstValue(h.Get("X-Forwarded-Prefix")); fp != "" && strings.HasPrefix(fp, "/") && !strings.ContainsAny(fp, "\\?#\"' <>") && !strings.Contains(fp, "..") {
			prefix = path.Clean(fp)
		}
	}
	if !validHost(host) {
		return ""
	}
	p := strings.TrimRight(prefix, "/") + "/" + strings.Trim(b.Path, "/")
	return scheme + "://" + host + strings.TrimRight(p, "/")
}

func firstValue(v string) string {
	if i := strings.IndexByte(v, ','); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// validHost accepts a host[:port] made of the characters a DNS name, IPv4 or
// bracketed IPv6 address with port can contain.
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '.', c == '-', c == ':', c == '[', c == ']', c == '_':
		default:
			return false
		}
	}
	return true
}

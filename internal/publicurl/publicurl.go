// Package publicurl checks and normalises the URL a dist/ folder is served
// from (widgetd.json "publicUrl", --public-url), and the dev server's
// --sandbox-url, with one rule for both; and gives such a URL's origin, for
// the places that trust or announce it (the CSP, the dev server's guards,
// the registry's asset base).
package publicurl

import (
	"fmt"
	"net/url"
	"strings"
)

// Normalize checks that u is an absolute http(s) URL with no query or
// fragment and returns it without a trailing slash.
func Normalize(u string) (string, error) {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" || (p.Scheme != "https" && p.Scheme != "http") {
		return "", fmt.Errorf("public URL %q must be an absolute http(s) URL such as https://cdn.example.com/widgets", u)
	}
	if p.RawQuery != "" || p.Fragment != "" || p.User != nil {
		return "", fmt.Errorf("public URL %q must not carry a query, fragment or credentials", u)
	}
	if p.Scheme == "http" && !IsLoopbackHost(p.Hostname()) {
		return "", fmt.Errorf("public URL %q must use https (http is only for localhost)", u)
	}
	return strings.TrimSuffix(p.Scheme+"://"+p.Host+p.EscapedPath(), "/"), nil
}

// IsLoopbackHost reports whether a host name (no port) is this machine's, the
// only place plain http is allowed.
func IsLoopbackHost(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "::1" || strings.HasSuffix(h, ".localhost")
}

// Origin returns the scheme://host[:port] of the absolute URL u, or "" when u
// does not parse or names no scheme or host.
func Origin(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

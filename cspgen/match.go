package cspgen

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Directive names a fetch directive of the spec-constructed CSP that a URL
// can be checked against with Policy.Allows.
type Directive int

// The directives a widget's loads fall under.
const (
	// ConnectSrc governs fetch, XHR, WebSocket and EventSource.
	ConnectSrc Directive = iota + 1
	// ScriptSrc governs <script src> and module imports.
	ScriptSrc
	// StyleSrc governs stylesheets.
	StyleSrc
	// ImgSrc governs images (data: is always allowed).
	ImgSrc
	// FontSrc governs web fonts.
	FontSrc
	// MediaSrc governs <audio> and <video> (data: is always allowed).
	MediaSrc
	// FrameSrc governs nested iframes.
	FrameSrc
	// BaseURI governs the <base href> target.
	BaseURI
)

var directiveInfo = [...]struct{ name, field string }{
	ConnectSrc: {"connect-src", FieldConnect},
	ScriptSrc:  {"script-src", FieldResource},
	StyleSrc:   {"style-src", FieldResource},
	ImgSrc:     {"img-src", FieldResource},
	FontSrc:    {"font-src", FieldResource},
	MediaSrc:   {"media-src", FieldResource},
	FrameSrc:   {"frame-src", FieldFrame},
	BaseURI:    {"base-uri", FieldBaseURI},
}

func (d Directive) valid() bool { return d >= ConnectSrc && d <= BaseURI }

// String returns the CSP directive name, such as "connect-src".
func (d Directive) String() string {
	if !d.valid() {
		return "Directive(" + strconv.Itoa(int(d)) + ")"
	}
	return directiveInfo[d].name
}

// List returns the widget.json list that feeds d, such as "resourceDomains",
// so a checker can tell the author where to declare a blocked origin.
func (d Directive) List() string {
	if !d.valid() {
		return ""
	}
	return directiveInfo[d].field
}

// ParseDirective returns the Directive named name ("img-src"), case-insensitively.
func ParseDirective(name string) (Directive, bool) {
	for d := ConnectSrc; d <= BaseURI; d++ {
		if strings.EqualFold(directiveInfo[d].name, name) {
			return d, true
		}
	}
	return 0, false
}

// Allows reports whether, under the policy's spec-constructed CSP (Header), a
// widget may load the absolute URL rawURL through directive d. Matching
// follows CSP3 source matching: scheme (an http source also matches https, an
// https source also matches wss since WebSocket requests are checked as
// https), host (exactly, or "*.example.com" for any subdomain but not
// example.com itself), port (an omitted port means the scheme's default) and
// data: where the construction lists it (img-src, media-src).
//
// 'self' is treated as matching nothing: a widget's own origin is a host
// sandbox it does not control, so relative URLs and anything not declared are
// reported as blocked. Unparsable URLs are blocked too, and hosts are
// compared as written: a Unicode host is not converted to punycode.
func (p *Policy) Allows(d Directive, rawURL string) bool {
	if !d.valid() {
		return false
	}
	t, ok := parseTarget(rawURL)
	if !ok {
		return false
	}
	name := d.String()
	pd := p.domains()
	for i := range specDirectives {
		if specDirectives[i].name == name {
			return matchSourceList(specDirectives[i].sources(pd), t)
		}
	}
	return false
}

// target is a URL reduced to what CSP matching looks at.
type target struct {
	scheme string // lowercase; ws/wss mapped to http/https
	host   string // lowercase; IPv6 in brackets; "" for opaque URLs (data:)
	port   int    // -1 when absent or the scheme's default (URL "null" port)
	path   string
}

// parseTarget parses an absolute URL for matching.
func parseTarget(raw string) (target, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return target{}, false
	}
	t := target{scheme: strings.ToLower(u.Scheme), port: -1, path: u.EscapedPath()}
	// The WebSocket standard fetches ws: and wss: URLs as http: and https:,
	// and that is the URL CSP checks.
	switch t.scheme {
	case "ws":
		t.scheme = "http"
	case "wss":
		t.scheme = "https"
	}
	if u.Opaque != "" {
		return t, true
	}
	if u.Host == "" {
		if t.scheme == "http" || t.scheme == "https" {
			return target{}, false
		}
		return t, true
	}
	t.host = strings.ToLower(u.Hostname())
	if strings.IndexByte(t.host, ':') >= 0 {
		t.host = "[" + t.host + "]"
	}
	if ps := u.Port(); ps != "" {
		n, err := strconv.Atoi(ps)
		if err != nil || n < 0 || n > 65535 {
			return target{}, false
		}
		if n != defaultPort(t.scheme) {
			t.port = n
		}
	}
	return t, true
}

// matchSourceList reports whether any source expression matches t.
func matchSourceList(sources []string, t target) bool {
	for _, s := range sources {
		if matchSource(s, t) {
			return true
		}
	}
	return false
}

// matchSource implements CSP3 "does url match expression" for a document
// whose origin matches nothing ('self' is never a match).
func matchSource(expr string, t target) bool {
	if expr == "" || expr[0] == '\'' {
		return false // keywords, nonces, hashes: never a URL match here
	}
	if expr == "*" {
		return t.scheme == "http" || t.scheme == "https"
	}
	if strings.HasSuffix(expr, ":") && isScheme(expr[:len(expr)-1]) {
		return schemeMatches(strings.ToLower(expr[:len(expr)-1]), t.scheme)
	}
	rest := expr
	if i := strings.Index(rest, "://"); i >= 0 {
		if !isScheme(rest[:i]) || !schemeMatches(strings.ToLower(rest[:i]), t.scheme) {
			return false
		}
		rest = rest[i+3:]
	} else if t.scheme != "https" {
		// A scheme-less source takes the document's scheme; widget sandboxes
		// are served over https.
		return false
	}
	if t.host == "" {
		return false
	}
	host, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	port := ""
	if strings.HasPrefix(host, "[") {
		if j := strings.IndexByte(host, ']'); j >= 0 {
			host, port = host[:j+1], strings.TrimPrefix(host[j+1:], ":")
		}
	} else if i := strings.IndexByte(host, ':'); i >= 0 {
		host, port = host[:i], host[i+1:]
	}
	if !hostMatches(strings.ToLower(host), t.host) || !portMatches(port, t) {
		return false
	}
	return pathMatches(path, t.path)
}

// schemeMatches is CSP3 "scheme-part matches": an expression scheme a
// matches a URL scheme b when equal, or when b is a secure upgrade of a.
func schemeMatches(a, b string) bool {
	switch {
	case a == b:
		return true
	case a == "http":
		return b == "https"
	case a == "ws":
		return b == "wss" || b == "http" || b == "https"
	case a == "wss":
		return b == "https"
	}
	return false
}

// hostMatches is CSP3 "host-part matches"; pattern and host are lowercase.
// IP addresses match only exactly, as browsers do.
func hostMatches(pattern, host string) bool {
	switch {
	case pattern == "*":
		return true
	case strings.HasPrefix(pattern, "*."):
		return strings.HasSuffix(host, pattern[1:])
	}
	return pattern == host
}

// portMatches is CSP3 "port-part matches": an empty port matches the URL's
// default port, including the default of an upgraded scheme (http source,
// https URL).
func portMatches(port string, t target) bool {
	switch {
	case port == "*":
		return true
	case port == "":
		return t.port == -1
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return false
	}
	if n == t.port {
		return true
	}
	return t.port == -1 && n == defaultPort(t.scheme)
}

// pathMatches is CSP3 "path-part matches" without percent-decoding: a path
// ending in '/' matches as a prefix, any other path exactly.
func pathMatches(pattern, path string) bool {
	if pattern == "" || pattern == "/" {
		return true
	}
	if path == "" {
		path = "/"
	}
	if strings.HasSuffix(pattern, "/") {
		return strings.HasPrefix(path, pattern)
	}
	return pattern == path
}

// OriginOf returns the normalised origin (scheme://host[:port], lowercase,
// default port dropped) of the absolute URL rawURL, the form an entry for it
// would take in a declared list. A checker uses it to tell the author what to
// add. The origin is not validated against the list rules; pass it to New
// for that.
func OriginOf(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("origin of %q: %w", rawURL, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "" || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("origin of %q: not an absolute URL with a host", rawURL)
	}
	host := strings.ToLower(u.Hostname())
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	origin := scheme + "://" + host
	if ps := u.Port(); ps != "" {
		n, err := strconv.Atoi(ps)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("origin of %q: bad port %q", rawURL, ps)
		}
		if n != defaultPort(scheme) {
			origin += ":" + strconv.Itoa(n)
		}
	}
	return origin, nil
}

package cspgen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
)

// keywords are CSP keyword names that authors sometimes write, quoted or not,
// into a domain list.
var keywords = map[string]bool{
	"self": true, "none": true, "unsafe-inline": true, "unsafe-eval": true,
	"strict-dynamic": true, "unsafe-hashes": true, "wasm-unsafe-eval": true,
	"report-sample": true, "unsafe-allow-redirects": true,
	"inline-speculation-rules": true, "trusted-types-eval": true,
}

// devHosts are the only hosts allowed with http:// and ws://.
var devHosts = map[string]bool{"localhost": true, "127.0.0.1": true, "[::1]": true}

// defaultPort returns the default port of a scheme, or 0 if it has none.
func defaultPort(scheme string) int {
	switch scheme {
	case "https", "wss":
		return 443
	case "http", "ws":
		return 80
	case "ftp":
		return 21
	}
	return 0
}

const exampleOrigin = "https://cdn.example.com"

// normaliseEntry validates one declared entry of the list named field. It
// returns the normalised origin, or a non-empty reason saying what is wrong
// and how to fix it.
func normaliseEntry(field, s string) (string, string) {
	if reason := textReason(s); reason != "" {
		return "", reason
	}
	scheme, rest, reason := splitScheme(field, s)
	if reason != "" {
		return "", reason
	}
	if reason := fieldSchemeReason(field, scheme); reason != "" {
		return "", reason
	}
	auth, tail := splitAuthority(rest)
	origin, host, reason := authorityOrigin(scheme, auth)
	if reason != "" {
		return "", reason
	}
	if reason := insecureReason(scheme, host, origin); reason != "" {
		return "", reason
	}
	if reason := tailReason(tail, origin); reason != "" {
		return "", reason
	}
	return origin, ""
}

// textReason checks an entry as text, before it is read as a URL: not
// empty, UTF-8, no character that could break out of the CSP (line breaks,
// controls, whitespace, ';', ','), no invisible one, no quoted or bare
// keyword, no bare "*".
func textReason(s string) string {
	if s == "" {
		return "empty entry; remove it, or write an origin such as " + exampleOrigin
	}
	if !utf8.ValidString(s) {
		return "not valid UTF-8; write the origin in ASCII, such as " + exampleOrigin
	}
	for _, r := range s {
		if reason := runeReason(s, r); reason != "" {
			return reason
		}
	}
	if keywords[strings.ToLower(s)] {
		return keywordReason(s)
	}
	if s == "*" {
		return "a bare * would allow every origin; list each origin, or use a wildcard subdomain such as https://*.example.com"
	}
	return ""
}

// runeReason explains why rune r may not appear in entry s, or returns "".
func runeReason(s string, r rune) string {
	switch {
	case r == '\r' || r == '\n':
		return "contains a line break (CR/LF), which could inject a header line or a directive; remove it"
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return fmt.Sprintf("contains control character %U; remove it", r)
	case unicode.IsSpace(r):
		return "contains whitespace, which separates sources in a CSP; write each origin as its own entry"
	case unicode.Is(unicode.Cf, r):
		return fmt.Sprintf("contains invisible formatting character %U; retype the origin in plain ASCII", r)
	case r == ';':
		return "contains ';', which ends a CSP directive and could inject another; write each origin as its own entry"
	case r == ',':
		return "contains ',', which separates policies in a CSP header; write each origin as its own entry"
	case r == '\'' || r == '"':
		return keywordReason(s)
	}
	return ""
}

// fieldSchemeReason explains why the list named field may not hold an entry
// with scheme, or returns "": https anywhere, wss and ws only in
// FieldConnect, http (localhost only, checked later).
func fieldSchemeReason(field, scheme string) string {
	switch scheme {
	case "https", "http":
		return ""
	case "wss", "ws":
		if field != FieldConnect {
			return fmt.Sprintf("%s:// only applies to WebSocket connections, which connect-src governs; move it to %s, or use https:// here", scheme, FieldConnect)
		}
		return ""
	}
	if r := schemeReason(scheme); r != "" {
		return r
	}
	return fmt.Sprintf("scheme %q is not allowed; entries must be https:// origins (wss:// in %s, http:// only for localhost)", scheme+"://", FieldConnect)
}

// splitAuthority splits what follows "scheme://" into the authority and
// whatever follows it. A backslash counts as a path separator, as browsers
// treat it in http(s) URLs.
func splitAuthority(rest string) (auth, tail string) {
	if end := strings.IndexAny(rest, `/?#\`); end >= 0 {
		return rest[:end], rest[end:]
	}
	return rest, ""
}

// authorityOrigin normalises the authority auth of an entry with scheme
// into the origin (default port dropped) and its host, or returns a reason.
func authorityOrigin(scheme, auth string) (origin, host, reason string) {
	if auth == "" {
		return "", "", fmt.Sprintf("missing host after %q; write an origin such as %s", scheme+"://", exampleOrigin)
	}
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		return "", "", fmt.Sprintf("contains credentials (user@); CSP sources cannot carry them, write %q", scheme+"://"+auth[at+1:])
	}
	host, port, reason := splitHostPort(auth)
	if reason != "" {
		return "", "", reason
	}
	host, reason = normaliseHost(host)
	if reason != "" {
		return "", "", reason
	}
	if port == defaultPort(scheme) {
		port = 0
	}
	origin = scheme + "://" + host
	if port != 0 {
		origin += ":" + strconv.Itoa(port)
	}
	return origin, host, ""
}

// insecureReason refuses http:// and ws:// origins except on the
// development hosts, suggesting the secure origin.
func insecureReason(scheme, host, origin string) string {
	if (scheme != "http" && scheme != "ws") || devHosts[host] {
		return ""
	}
	secure := "https"
	if scheme == "ws" {
		secure = "wss"
	}
	return fmt.Sprintf("%s:// is only allowed for localhost, 127.0.0.1 and [::1] during development; use %q", scheme, secure+"://"+strings.TrimPrefix(origin, scheme+"://"))
}

// tailReason refuses a path, query or fragment after the authority (a lone
// "/" is fine), suggesting origin.
func tailReason(tail, origin string) string {
	if tail == "" || tail == "/" {
		return ""
	}
	t := tail
	if t[0] == '/' && len(t) > 1 && (t[1] == '?' || t[1] == '#') {
		t = t[1:]
	}
	switch t[0] {
	case '?':
		return fmt.Sprintf("has a query (?...); CSP entries are origins, write %q", origin)
	case '#':
		return fmt.Sprintf("has a fragment (#...); CSP entries are origins, write %q", origin)
	default:
		return fmt.Sprintf("has a path (%s); entries are origins and cover every path, write %q", tail, origin)
	}
}

// keywordReason explains why a keyword or quoted token is not an entry.
func keywordReason(s string) string {
	k := strings.ToLower(strings.Trim(s, `'"`))
	switch {
	case k == "self":
		return "'self' is not an origin; the host adds 'self' itself where the spec allows it, remove this entry"
	case k == "none":
		return "'none' is not an origin; an empty list already means nothing is allowed, remove this entry"
	case keywords[k]:
		return fmt.Sprintf("CSP keywords such as '%s' are not origins and hosts reject them in these lists; remove it", k)
	}
	return "contains a quote; entries are origins such as " + exampleOrigin + ", not CSP keywords, nonces or hashes"
}

// schemeReason explains why a non-origin scheme is refused, or returns "" if
// it has nothing specific to say.
func schemeReason(scheme string) string {
	switch scheme {
	case "data":
		return "data: is not an origin; the spec CSP already allows data: in img-src and media-src and nowhere else, remove it"
	case "blob", "filesystem":
		return scheme + ": URLs cannot be allowed through these lists; remove it"
	case "javascript", "vbscript":
		return scheme + ": URLs are never allowed; remove it"
	}
	return ""
}

// isScheme reports whether s has URL scheme syntax: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
func isScheme(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// splitScheme splits "scheme://rest" and lowercases the scheme. It explains a
// missing or malformed scheme.
func splitScheme(field, s string) (scheme, rest, reason string) {
	i := strings.IndexByte(s, ':')
	if i < 0 || (!strings.HasPrefix(s[i:], "://") &&
		((s[i+1:] != "" && allDigits(s[i+1:])) || !isScheme(s[:i]) || strings.IndexByte(s[:i], '.') >= 0)) {
		// host, host:port, //host, [::1]:port, *.example.com ...
		return "", "", "missing scheme; write " + strconv.Quote(suggestScheme(field, s))
	}
	cand, after := s[:i], s[i+1:]
	if strings.HasPrefix(after, "//") {
		switch {
		case cand == "":
			return "", "", "missing scheme before '://'; write " + strconv.Quote("https"+s)
		case !isScheme(cand):
			return "", "", fmt.Sprintf("invalid scheme %q; write an origin such as %s", cand, exampleOrigin)
		}
		return strings.ToLower(cand), after[2:], ""
	}
	lc := strings.ToLower(cand)
	if r := schemeReason(lc); r != "" {
		return "", "", r
	}
	switch lc {
	case "https", "http", "wss", "ws":
		if after == "" {
			return "", "", fmt.Sprintf("a bare scheme source (%s:) would allow every host; list each origin, such as %s", lc, exampleOrigin)
		}
		return "", "", fmt.Sprintf("missing \"//\" after %q; write %q", lc+":", lc+"://"+strings.TrimLeft(after, `/\`))
	}
	return "", "", fmt.Sprintf("scheme %q is not allowed; entries must be https:// origins (wss:// in %s, http:// only for localhost)", lc+":", FieldConnect)
}

// suggestScheme guesses the origin the author meant when the scheme is
// missing: http:// for local development hosts, https:// otherwise.
func suggestScheme(field, s string) string {
	if strings.HasPrefix(s, "//") {
		return "https:" + s
	}
	h := strings.ToLower(s)
	for dev := range devHosts {
		if h == dev || strings.HasPrefix(h, dev+":") || strings.HasPrefix(h, dev+"/") {
			return "http://" + s
		}
	}
	return "https://" + s
}

// splitHostPort splits an authority into host and numeric port (0 when absent).
func splitHostPort(auth string) (host string, port int, reason string) {
	var portStr string
	hasPort := false
	if auth[0] == '[' {
		j := strings.IndexByte(auth, ']')
		if j < 0 {
			return "", 0, fmt.Sprintf("unterminated IPv6 literal %q; the only IPv6 host accepted is [::1]", auth)
		}
		host = auth[:j+1]
		switch r := auth[j+1:]; {
		case r == "":
		case r[0] == ':':
			portStr, hasPort = r[1:], true
		default:
			return "", 0, fmt.Sprintf("unexpected %q after IPv6 literal %s", r, host)
		}
	} else if k := strings.IndexByte(auth, ':'); k >= 0 {
		host, portStr, hasPort = auth[:k], auth[k+1:], true
	} else {
		host = auth
	}
	if !hasPort {
		return host, 0, ""
	}
	switch {
	case portStr == "":
		return "", 0, "empty port after ':'; remove the ':' or write a port number"
	case portStr == "*":
		return "", 0, "wildcard ports (:*) are not allowed; list each port you use"
	case !allDigits(portStr):
		return "", 0, fmt.Sprintf("port %q is not a number; write a port between 1 and 65535", portStr)
	case len(portStr) > 5:
		return "", 0, fmt.Sprintf("port %s is out of range; write a port between 1 and 65535", portStr)
	}
	n, _ := strconv.Atoi(portStr) // all digits, at most 5
	switch {
	case n < 1 || n > 65535:
		return "", 0, fmt.Sprintf("port %s is out of range; write a port between 1 and 65535", portStr)
	case portStr[0] == '0':
		return "", 0, fmt.Sprintf("port %s has leading zeros; write %d", portStr, n)
	}
	return host, n, ""
}

// normaliseHost lowercases and validates a host: a DNS name (optionally with
// a leading "*." label), a dotted-quad IPv4 address, or [::1].
func normaliseHost(host string) (string, string) {
	for i := 0; i < len(host); i++ {
		if host[i] >= utf8.RuneSelf {
			return "", fmt.Sprintf("host %q is not ASCII; write internationalised domain names in punycode (bücher.example is xn--bcher-kva.example)", host)
		}
	}
	if host == "" {
		return "", "missing host before the port; write an origin such as " + exampleOrigin
	}
	host = strings.ToLower(host)
	if host[0] == '[' {
		if host != "[::1]" {
			return "", fmt.Sprintf("IPv6 literal %s is not supported; the only IPv6 host accepted is [::1], for local development", host)
		}
		return host, ""
	}
	if host == "*" {
		return "", "a bare * host would allow every origin with this scheme; use a wildcard subdomain such as https://*.example.com"
	}
	name, wild := strings.CutPrefix(host, "*.")
	if strings.IndexByte(name, '*') >= 0 {
		return "", fmt.Sprintf("host %q: '*' is only allowed as the whole leftmost label, as in https://*.example.com", host)
	}
	if len(name) > 253 {
		return "", fmt.Sprintf("host %q is longer than 253 characters", host)
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if l == "" {
			return "", fmt.Sprintf("host %q has an empty label (a leading, trailing or doubled '.'); remove the extra dot", host)
		}
		if len(l) > 63 {
			return "", fmt.Sprintf("host %q has a label longer than 63 characters", host)
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !isAlpha(c) && !isDigit(c) && c != '-' {
				return "", fmt.Sprintf("host %q contains %q; host names may only use letters, digits, '-' and '.'", host, string(c))
			}
		}
		if l[0] == '-' || l[len(l)-1] == '-' {
			return "", fmt.Sprintf("host %q has a label that starts or ends with '-'", host)
		}
	}
	if last := labels[len(labels)-1]; allDigits(last) || (strings.HasPrefix(last, "0x") && len(last) > 2) {
		// Browsers parse a host whose last label is numeric as an IPv4 address.
		if wild {
			return "", fmt.Sprintf("host %q: a wildcard cannot apply to an IP address", host)
		}
		if !isIPv4(labels) {
			return "", fmt.Sprintf("host %q is not a valid IPv4 address; write four decimal numbers 0-255 such as 127.0.0.1", host)
		}
		return host, ""
	}
	if wild && len(labels) < 2 {
		return "", fmt.Sprintf("wildcard %q must have at least two labels after '*.' (such as *.example.com); %s would cover a whole top-level domain", host, host)
	}
	if wild {
		return host, wildcardSuffixReason(host, name)
	}
	return host, ""
}

// wildcardSuffixReason explains why the wildcard host "*.name" would allow
// sites its author does not control, or returns "". A CSP wildcard matches
// every name below name, so it is refused when name is itself a public
// suffix, and when the Public Suffix List has a wildcard rule "*.name" that
// makes the names directly under name public suffixes (*.sch.uk,
// *.compute-1.amazonaws.com). An exception rule ("!city.kawasaki.jp") makes
// its one name registrable again, so *.city.kawasaki.jp is fine while
// *.kawasaki.jp is not. The ICANN and private sections count alike.
func wildcardSuffixReason(host, name string) string {
	if isPublicSuffix(name) {
		return fmt.Sprintf("wildcard %q covers a public suffix: anyone can register a site under %s, so it would allow origins you do not control; list your own origins, or a wildcard under a domain you own (such as https://*.yours.%s)", host, name, name)
	}
	if isPublicSuffix(suffixProbeLabel + "." + name) {
		return fmt.Sprintf("wildcard %q covers public suffixes: the names directly under %s are themselves public suffixes (Public Suffix List rule *.%s), so anyone can register sites below them and this wildcard would allow origins you do not control; list the exact host you use, such as https://yours.%s", host, name, name, name)
	}
	return ""
}

// suffixProbeLabel stands for "any name" directly under a wildcard's base
// when asking the Public Suffix List whether its wildcard rule applies. It
// is a valid label that no rule of the List names, so only a wildcard rule
// can match it and no exception rule can.
const suffixProbeLabel = "widgetd-psl-probe"

// isPublicSuffix reports whether name is itself a public suffix (a name
// under which anyone can register: com, co.uk, github.io, a.sch.uk, …) by
// the Public Suffix List, ICANN and private sections both, wildcard and
// exception rules applied.
func isPublicSuffix(name string) bool {
	suffix, _ := publicsuffix.PublicSuffix(name)
	return suffix == name
}

// isIPv4 reports whether labels are four canonical decimal octets.
func isIPv4(labels []string) bool {
	if len(labels) != 4 {
		return false
	}
	for _, l := range labels {
		if !allDigits(l) || len(l) > 3 || (len(l) > 1 && l[0] == '0') {
			return false
		}
		if n, _ := strconv.Atoi(l); n > 255 {
			return false
		}
	}
	return true
}

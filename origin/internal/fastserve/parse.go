package fastserve

import (
	"bytes"
	"net/http"
)

// request is the parsed head of a fast-path candidate. Its slices point
// into the connection's read buffer and are valid until the next read.
type request struct {
	head      bool
	target    []byte
	ae        []byte
	hasAE     bool
	class     encodingClass // set by lookup
	userAgent []byte
}

func (q *request) method() string {
	if q.head {
		return http.MethodHead
	}
	return http.MethodGet
}

// parseHead accepts only what the fast path can answer without net/http:
// "GET|HEAD <plain path> HTTP/1.1", CRLF line ends, syntactically valid
// fields, exactly one Host, at most one Accept-Encoding, and no field that
// changes the response (conditionals, Range) or the framing (bodies,
// Connection other than keep-alive, Expect, Upgrade). Anything else is
// refused (ok false) and goes to net/http, which is the reference.
func parseHead(h []byte) (q request, ok bool) {
	line, rest, found := bytes.Cut(h, crlf)
	if !found {
		return q, false
	}
	switch {
	case bytes.HasPrefix(line, []byte("GET ")):
		line = line[4:]
	case bytes.HasPrefix(line, []byte("HEAD ")):
		q.head = true
		line = line[5:]
	default:
		return q, false
	}
	target, proto, found := bytes.Cut(line, []byte(" "))
	if !found || string(proto) != "HTTP/1.1" || len(target) == 0 || target[0] != '/' {
		return q, false
	}
	for _, c := range target {
		if !plainPathByte[c] {
			return q, false
		}
	}
	q.target = target
	hosts := 0
	for {
		line, rest, found = bytes.Cut(rest, crlf)
		if !found {
			return q, false
		}
		if len(line) == 0 {
			break
		}
		name, value, found := bytes.Cut(line, []byte(":"))
		if !found || len(name) == 0 {
			return q, false
		}
		for _, c := range name {
			if !tokenByte[c] {
				return q, false
			}
		}
		value = bytes.Trim(value, " \t")
		for _, c := range value {
			if c < 0x20 && c != '\t' || c == 0x7f {
				return q, false
			}
		}
		switch {
		case asciiEqualFold(name, "host"):
			hosts++
			for _, c := range value {
				if !hostByte[c] {
					return q, false
				}
			}
		case asciiEqualFold(name, "accept-encoding"):
			if q.hasAE {
				return q, false
			}
			q.hasAE, q.ae = true, value
		case asciiEqualFold(name, "user-agent"):
			q.userAgent = value
		case asciiEqualFold(name, "connection"):
			if !asciiEqualFold(value, "keep-alive") {
				return q, false
			}
		case len(name) >= 3 && asciiEqualFold(name[:3], "if-"),
			asciiEqualFold(name, "range"),
			asciiEqualFold(name, "content-length"),
			asciiEqualFold(name, "transfer-encoding"),
			asciiEqualFold(name, "expect"),
			asciiEqualFold(name, "upgrade"),
			asciiEqualFold(name, "te"),
			asciiEqualFold(name, "trailer"):
			return q, false
		}
	}
	if hosts != 1 || len(rest) != 0 {
		return q, false
	}
	return q, true
}

var crlf = []byte("\r\n")

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// Byte classes of the strict parser.
var (
	tokenByte     = byteSet("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	plainPathByte = byteSet("/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	hostByte      = byteSet("-.:[]_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
)

func byteSet(s string) (t [256]bool) {
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return t
}

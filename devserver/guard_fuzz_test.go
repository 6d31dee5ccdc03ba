package devserver

import (
	"net"
	"net/netip"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzQuoteForTerminal: whatever a report holds, the printed text is valid
// UTF-8 with no control or format character, and plain text is untouched.
func FuzzQuoteForTerminal(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mred\x1b[0m", "a\r\nb", "\u202eevil", "\xff\xfe", "\u009b2J", "é ü 日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := quoteForTerminal(s)
		if !utf8.ValidString(q) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, q)
		}
		for _, r := range q {
			if unsafeRune(r) {
				t.Fatalf("raw %U left in %q (from %q)", r, q, s)
			}
		}
		if !needsQuoting(s) && q != s {
			t.Fatalf("safe text changed: %q → %q", s, q)
		}
	})
}

// FuzzHostPolicy: a Host header is allowed only when it names a loopback
// name or address, or one the policy was given.
func FuzzHostPolicy(f *testing.F) {
	for _, s := range []string{"localhost:5173", "127.0.0.1", "[::1]:1", "rebind.evil.example", "dev.lan:80", "x.localhost", "localhost.evil", "[::ffff:127.0.0.1]", ""} {
		f.Add(s)
	}
	p := newHostPolicy([]string{"127.0.0.1:5173"}, []string{"https://tunnel.example.com"}, []string{"dev.lan"})
	f.Fuzz(func(t *testing.T, host string) {
		if !p.allows(host) {
			return
		}
		h, _, err := net.SplitHostPort(host)
		if err != nil {
			h = host
		}
		h = normalHost(h)
		if ip, err := netip.ParseAddr(h); err == nil && ip.IsLoopback() {
			return
		}
		if h == "localhost" || strings.HasSuffix(h, ".localhost") || h == "127.0.0.1" || h == "tunnel.example.com" || h == "dev.lan" {
			return
		}
		t.Fatalf("allowed Host %q (host %q)", host, h)
	})
}

package cspgen

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// put returns Domains with entries in the list named field.
func put(field string, entries ...string) Domains {
	var d Domains
	l := d.listOf(field)
	if l == nil {
		panic("unknown field " + field)
	}
	*l = entries
	return d
}

func TestNewRejects(t *testing.T) {
	const ok = "https://ok.example.com"
	tests := []struct {
		name    string
		field   string
		entries []string
		index   int
		want    string // substring of Reason
	}{
		// Keywords and quotes.
		{"unsafe-eval", FieldResource, []string{"'unsafe-eval'"}, 0, "'unsafe-eval' are not origins"},
		{"self quoted", FieldConnect, []string{ok, "'self'"}, 1, "'self' is not an origin"},
		{"self bare", FieldResource, []string{"self"}, 0, "'self' is not an origin"},
		{"none", FieldFrame, []string{"'none'"}, 0, "empty list already means nothing"},
		{"strict-dynamic bare", FieldResource, []string{"strict-dynamic"}, 0, "are not origins"},
		{"nonce", FieldResource, []string{"'nonce-abc'"}, 0, "contains a quote"},
		{"double quote", FieldResource, []string{`"https://a.com"`}, 0, "contains a quote"},
		{"quote inside", FieldConnect, []string{"https://a.com'"}, 0, "contains a quote"},
		// Wildcards.
		{"bare star", FieldConnect, []string{"*"}, 0, "bare * would allow every origin"},
		{"star host", FieldResource, []string{"https://*"}, 0, "bare * host"},
		{"star tld", FieldResource, []string{"https://*.com"}, 0, "at least two labels"},
		{"star localhost", FieldResource, []string{"https://*.localhost"}, 0, "at least two labels"},
		{"star github.io", FieldResource, []string{"https://*.github.io"}, 0, "covers a public suffix"},
		{"star co.uk", FieldConnect, []string{"https://*.co.uk"}, 0, "covers a public suffix"},
		{"star co.uk upper", FieldConnect, []string{"HTTPS://*.CO.UK"}, 0, "covers a public suffix"},
		{"star vercel.app", FieldFrame, []string{"https://*.vercel.app"}, 0, "covers a public suffix"},
		{"star wss appspot", FieldConnect, []string{"wss://*.appspot.com"}, 0, "covers a public suffix"},
		{"star wildcard rule", FieldResource, []string{"https://*.foo.ck"}, 0, "covers a public suffix"},
		{"star middle", FieldResource, []string{"https://a.*.com"}, 0, "whole leftmost label"},
		{"star partial", FieldResource, []string{"https://*a.example.com"}, 0, "whole leftmost label"},
		{"double star", FieldResource, []string{"https://*.*.example.com"}, 0, "whole leftmost label"},
		{"star ip", FieldResource, []string{"https://*.0.0.1"}, 0, "IP address"},
		{"star scheme", FieldResource, []string{"*://a.com"}, 0, "invalid scheme"},
		{"star port", FieldResource, []string{"https://a.com:*"}, 0, "wildcard ports"},
		// Schemes.
		{"data", FieldResource, []string{"data:"}, 0, "data: is not an origin"},
		{"data url", FieldResource, []string{"data:image/png"}, 0, "data: is not an origin"},
		{"blob", FieldResource, []string{"blob:"}, 0, "blob: URLs cannot"},
		{"blob url", FieldResource, []string{"blob:https://a.com/x"}, 0, "blob: URLs cannot"},
		{"javascript", FieldConnect, []string{"javascript:alert(1)"}, 0, "never allowed"},
		{"ftp", FieldResource, []string{"ftp://files.example.com"}, 0, `scheme "ftp://" is not allowed`},
		{"mailto", FieldRedirect, []string{"mailto:x@example.com"}, 0, `scheme "mailto:" is not allowed`},
		{"scheme source", FieldResource, []string{"https:"}, 0, "bare scheme source"},
		{"no slashes", FieldResource, []string{"https:cdn.example.com"}, 0, `write "https://cdn.example.com"`},
		{"empty scheme", FieldResource, []string{"://cdn.example.com"}, 0, `write "https://cdn.example.com"`},
		{"wss in resource", FieldResource, []string{"wss://rt.example.com"}, 0, "move it to connectDomains"},
		{"wss in frame", FieldFrame, []string{"wss://rt.example.com"}, 0, "move it to connectDomains"},
		{"ws in redirect", FieldRedirect, []string{"ws://localhost:1"}, 0, "move it to connectDomains"},
		{"http remote", FieldResource, []string{"http://cdn.example.com"}, 0, `use "https://cdn.example.com"`},
		{"ws remote", FieldConnect, []string{"ws://rt.example.com:8080"}, 0, `use "wss://rt.example.com:8080"`},
		{"http localhost sub", FieldConnect, []string{"http://app.localhost"}, 0, "only allowed for localhost"},
		// Missing scheme.
		{"bare host", FieldResource, []string{"cdn.example.com"}, 0, `missing scheme; write "https://cdn.example.com"`},
		{"host port", FieldConnect, []string{"api.example.com:8443"}, 0, `write "https://api.example.com:8443"`},
		{"localhost port", FieldConnect, []string{"localhost:5173"}, 0, `write "http://localhost:5173"`},
		{"ipv6 port", FieldConnect, []string{"[::1]:5173"}, 0, `write "http://[::1]:5173"`},
		{"scheme relative", FieldResource, []string{"//cdn.example.com"}, 0, `write "https://cdn.example.com"`},
		{"wildcard no scheme", FieldResource, []string{"*.example.com"}, 0, `write "https://*.example.com"`},
		{"dotted bad port", FieldResource, []string{"cdn.example.com:abc"}, 0, "missing scheme"},
		// Paths, queries, fragments, credentials.
		{"path", FieldResource, []string{"https://cdn.example.com/lib/"}, 0, `has a path (/lib/); entries are origins and cover every path, write "https://cdn.example.com"`},
		{"path no slash", FieldResource, []string{"https://CDN.example.com:443/x.js"}, 0, `write "https://cdn.example.com"`},
		{"double slash", FieldResource, []string{"https://cdn.example.com//"}, 0, "has a path"},
		{"backslash", FieldResource, []string{`https://cdn.example.com\evil`}, 0, "has a path"},
		{"query", FieldConnect, []string{"https://api.example.com?x=1"}, 0, "has a query"},
		{"slash query", FieldConnect, []string{"https://api.example.com/?"}, 0, "has a query"},
		{"fragment", FieldConnect, []string{"https://api.example.com#x"}, 0, "has a fragment"},
		{"slash fragment", FieldConnect, []string{"https://api.example.com/#"}, 0, "has a fragment"},
		{"credentials", FieldConnect, []string{"https://user:pw@api.example.com"}, 0, `credentials (user@); CSP sources cannot carry them, write "https://api.example.com"`},
		{"at in host", FieldConnect, []string{"https://a.com@evil.com"}, 0, "credentials"},
		// Injection characters.
		{"semicolon", FieldResource, []string{"https://a.com;script-src *"}, 0, "ends a CSP directive"},
		{"semicolon only", FieldResource, []string{"https://a.com;script-src"}, 0, "ends a CSP directive"},
		{"comma", FieldResource, []string{"https://a.com,https://b.com"}, 0, "separates policies"},
		{"space", FieldResource, []string{"https://a.com https://b.com"}, 0, "contains whitespace"},
		{"tab", FieldResource, []string{"https://a.com\t"}, 0, "control character U+0009"},
		{"nbsp", FieldResource, []string{"https://a.com\u00a0"}, 0, "contains whitespace"},
		{"line separator", FieldResource, []string{"https://a.com\u2028"}, 0, "contains whitespace"},
		{"CR", FieldConnect, []string{"https://a.com\r"}, 0, "line break"},
		{"LF", FieldConnect, []string{"https://a.com\nSet-Cookie: x"}, 0, "line break"},
		{"NUL", FieldConnect, []string{"https://a.com\x00"}, 0, "control character U+0000"},
		{"DEL", FieldConnect, []string{"https://a\x7f.com"}, 0, "control character U+007F"},
		{"C1", FieldConnect, []string{"https://a.com\u0085"}, 0, "control character U+0085"},
		{"zero width", FieldConnect, []string{"https://a\u200b.com"}, 0, "invisible formatting character U+200B"},
		{"bidi", FieldConnect, []string{"https://a\u202e.com"}, 0, "invisible formatting character U+202E"},
		{"bad utf8", FieldConnect, []string{"https://a\xff.com"}, 0, "not valid UTF-8"},
		{"empty", FieldFrame, []string{ok, ""}, 1, "empty entry"},
		// Hosts.
		{"unicode host", FieldResource, []string{"https://bücher.example"}, 0, "punycode"},
		{"cyrillic host", FieldResource, []string{"https://аpple.com"}, 0, "punycode"},
		{"underscore", FieldResource, []string{"https://my_cdn.example.com"}, 0, `contains "_"`},
		{"percent", FieldResource, []string{"https://%61.com"}, 0, `contains "%"`},
		{"leading dot", FieldResource, []string{"https://.example.com"}, 0, "empty label"},
		{"trailing dot", FieldResource, []string{"https://example.com."}, 0, "empty label"},
		{"double dot", FieldResource, []string{"https://a..com"}, 0, "empty label"},
		{"leading hyphen", FieldResource, []string{"https://-a.com"}, 0, "starts or ends with '-'"},
		{"trailing hyphen", FieldResource, []string{"https://a-.com"}, 0, "starts or ends with '-'"},
		{"long label", FieldResource, []string{"https://" + strings.Repeat("a", 64) + ".com"}, 0, "longer than 63"},
		{"long host", FieldResource, []string{"https://" + strings.Repeat(strings.Repeat("a", 60)+".", 5) + "com"}, 0, "longer than 253"},
		{"missing host", FieldResource, []string{"https://"}, 0, "missing host"},
		{"missing host port", FieldResource, []string{"https://:443"}, 0, "missing host before the port"},
		{"missing host path", FieldResource, []string{"https:///x"}, 0, "missing host"},
		{"bad ipv4", FieldConnect, []string{"https://256.1.1.1"}, 0, "not a valid IPv4"},
		{"short ipv4", FieldConnect, []string{"http://127.1"}, 0, "not a valid IPv4"},
		{"octal ipv4", FieldConnect, []string{"https://010.0.0.1"}, 0, "not a valid IPv4"},
		{"hex ipv4", FieldConnect, []string{"https://a.0x7f"}, 0, "not a valid IPv4"},
		{"ipv6 other", FieldConnect, []string{"https://[2001:db8::1]"}, 0, "only IPv6 host accepted is [::1]"},
		{"ipv6 long loopback", FieldConnect, []string{"http://[0:0:0:0:0:0:0:1]"}, 0, "only IPv6 host accepted is [::1]"},
		{"ipv6 unterminated", FieldConnect, []string{"http://[::1"}, 0, "unterminated IPv6"},
		{"ipv6 junk", FieldConnect, []string{"http://[::1]x"}, 0, "after IPv6 literal"},
		// Ports.
		{"port zero", FieldConnect, []string{"https://a.com:0"}, 0, "out of range"},
		{"port big", FieldConnect, []string{"https://a.com:65536"}, 0, "out of range"},
		{"port huge", FieldConnect, []string{"https://a.com:99999999999999999999"}, 0, "out of range"},
		{"port alpha", FieldConnect, []string{"https://a.com:https"}, 0, `port "https" is not a number`},
		{"port negative", FieldConnect, []string{"https://a.com:-1"}, 0, "not a number"},
		{"port empty", FieldConnect, []string{"https://a.com:"}, 0, "empty port"},
		{"port leading zero", FieldConnect, []string{"https://a.com:0443"}, 0, "leading zeros; write 443"},
		{"two colons", FieldConnect, []string{"https://a.com:1:2"}, 0, "not a number"},
		// Index points at the right entry, and earlier lists are checked first.
		{"index", FieldRedirect, []string{ok, ok, "https://x.com/p"}, 2, "has a path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(put(tt.field, tt.entries...))
			if err == nil {
				t.Fatalf("New accepted %q: header %q", tt.entries, p.Header())
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if e.Field != tt.field || e.Index != tt.index || e.Value != tt.entries[tt.index] {
				t.Errorf("got %s[%d] %q, want %s[%d] %q", e.Field, e.Index, e.Value, tt.field, tt.index, tt.entries[tt.index])
			}
			if !strings.Contains(e.Reason, tt.want) {
				t.Errorf("reason %q does not contain %q", e.Reason, tt.want)
			}
			for _, c := range err.Error() {
				if c < 0x20 || c == 0x7f {
					t.Errorf("Error() contains raw control character %U: %q", c, err.Error())
				}
			}
		})
	}
}

func TestNewFirstErrorOrder(t *testing.T) {
	_, err := New(Domains{
		Connect:  []string{"https://ok.com"},
		Resource: []string{"https://ok.com", "bad"},
		Frame:    []string{"'none'"},
	})
	var e *Error
	if !errors.As(err, &e) || e.Field != FieldResource || e.Index != 1 {
		t.Fatalf("got %v, want resourceDomains[1] first", err)
	}
	want := `resourceDomains[1] "bad": missing scheme; write "https://bad"`
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

func TestNewNormalises(t *testing.T) {
	tests := []struct {
		name  string
		field string
		in    []string
		want  []string
	}{
		{"lowercase", FieldResource, []string{"HTTPS://CDN.Example.COM"}, []string{"https://cdn.example.com"}},
		{"trailing slash", FieldResource, []string{"https://cdn.example.com/"}, []string{"https://cdn.example.com"}},
		{"default https port", FieldResource, []string{"https://cdn.example.com:443"}, []string{"https://cdn.example.com"}},
		{"default wss port", FieldConnect, []string{"wss://rt.example.com:443/"}, []string{"wss://rt.example.com"}},
		{"default http port", FieldConnect, []string{"http://localhost:80"}, []string{"http://localhost"}},
		{"default ws port", FieldConnect, []string{"ws://127.0.0.1:80"}, []string{"ws://127.0.0.1"}},
		{"keep other port", FieldConnect, []string{"https://api.example.com:8443", "http://localhost:443"}, []string{"http://localhost:443", "https://api.example.com:8443"}},
		{"cross default port kept", FieldConnect, []string{"https://a.com:80", "http://localhost:443"}, []string{"http://localhost:443", "https://a.com:80"}},
		{"wildcard", FieldResource, []string{"https://*.Example.com"}, []string{"https://*.example.com"}},
		{"wildcard under a public suffix", FieldResource, []string{"https://*.example.co.uk"}, []string{"https://*.example.co.uk"}},
		{"wildcard under a private suffix", FieldConnect, []string{"https://*.octo.github.io"}, []string{"https://*.octo.github.io"}},
		{"ipv6 loopback", FieldConnect, []string{"http://[::1]:5173", "ws://[::1]:5173"}, []string{"http://[::1]:5173", "ws://[::1]:5173"}},
		{"ipv4", FieldConnect, []string{"https://192.168.0.1:8443"}, []string{"https://192.168.0.1:8443"}},
		{"dedupe and sort", FieldResource, []string{
			"https://b.example.com", "https://a.example.com:443", "HTTPS://B.EXAMPLE.COM/", "https://a.example.com", "https://*.a.example.com",
		}, []string{"https://*.a.example.com", "https://a.example.com", "https://b.example.com"}},
		{"https localhost", FieldFrame, []string{"https://localhost:8443"}, []string{"https://localhost:8443"}},
		{"redirect", FieldRedirect, []string{"https://checkout.example.com"}, []string{"https://checkout.example.com"}},
		{"empty list", FieldBaseURI, []string{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(put(tt.field, tt.in...))
			if err != nil {
				t.Fatal(err)
			}
			d := p.Domains()
			if got := d.list(tt.field); !slices.Equal(got, tt.want) {
				t.Errorf("%s = %q, want %q", tt.field, got, tt.want)
			}
		})
	}
}

func TestDomainsIsACopy(t *testing.T) {
	in := []string{"https://a.com"}
	p, err := New(Domains{Resource: in})
	if err != nil {
		t.Fatal(err)
	}
	in[0] = "https://evil.com"
	d := p.Domains()
	d.Resource[0] = "https://evil.com"
	m := p.UIMeta()
	m.ResourceDomains[0] = "https://evil.com"
	if got := p.Domains().Resource; !slices.Equal(got, []string{"https://a.com"}) {
		t.Errorf("policy changed through an alias: %q", got)
	}
	if strings.Contains(p.Header(), "evil") {
		t.Errorf("header changed through an alias: %q", p.Header())
	}
}

func TestWith(t *testing.T) {
	p, err := New(Domains{Resource: []string{"https://cdn.example.com"}, Connect: []string{"https://api.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.With(Domains{Resource: []string{"HTTPS://assets.example.com/", "https://cdn.example.com"}, Connect: []string{"ws://localhost:5173"}})
	if err != nil {
		t.Fatal(err)
	}
	want := Domains{
		Connect:  []string{"https://api.example.com", "ws://localhost:5173"},
		Resource: []string{"https://assets.example.com", "https://cdn.example.com"},
	}
	if got := q.Domains(); !slices.Equal(got.Connect, want.Connect) || !slices.Equal(got.Resource, want.Resource) {
		t.Errorf("With = %+v, want %+v", got, want)
	}
	if got := p.Domains().Resource; len(got) != 1 {
		t.Errorf("With changed the receiver: %q", got)
	}

	// Errors index into extra, not into the merged list.
	_, err = p.With(Domains{Resource: []string{"https://ok.com", "'unsafe-eval'"}})
	var e *Error
	if !errors.As(err, &e) || e.Field != FieldResource || e.Index != 1 {
		t.Errorf("With error = %v, want resourceDomains[1]", err)
	}

	// A nil policy is the empty policy.
	var nilp *Policy
	r, err := nilp.With(Domains{Frame: []string{"https://embed.example.com"}})
	if err != nil || !slices.Equal(r.Domains().Frame, []string{"https://embed.example.com"}) {
		t.Errorf("nil With = %v, %v", r, err)
	}
}

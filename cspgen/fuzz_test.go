package cspgen

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/publicsuffix"
)

// fuzzSep separates entries within one fuzzed list argument. It is the only
// byte a fuzzed entry cannot contain; every other control character can.
const fuzzSep = "\x1e"

func splitEntries(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, fuzzSep)
}

// nastySeeds are entries that have broken real CSP generators.
var nastySeeds = []string{
	"https://a.com;script-src *",
	"https://a.com; script-src 'unsafe-eval'",
	"https://a.com\r\nContent-Security-Policy: script-src *",
	"https://a.com\n",
	"https://a.com\x00",
	"https://a.com,script-src *",
	"'unsafe-eval'",
	"'self'",
	"\"https://a.com\"",
	"*",
	"https://*",
	"https://*.com",
	"https://*.github.io",
	"https://*.co.uk",
	"https://*.s3.amazonaws.com",
	"https://*.user.github.io",
	"https://*.example.co.uk",
	"https://*.compute-1.amazonaws.com",
	"https://*.sch.uk",
	"https://*.nagoya.jp",
	"https://*.kawasaki.jp",
	"https://*.city.kawasaki.jp",
	"data:",
	"blob:",
	"javascript:alert(1)",
	"https://bücher.example",
	"https://xn--bcher-kva.example",
	"https://a\u202e.com",
	"https://a.com\u2028",
	"HTTPS://CDN.EXAMPLE.COM:443/",
	"https://*.example.com",
	"wss://rt.example.com",
	"ws://localhost:5173",
	"http://[::1]:8080",
	"https://user@a.com",
	"https://a.com/path",
	"https://a.com?q",
	"https://a.com#f",
	"https://a.com:65536",
	"https://a.com:0443",
	"cdn.example.com",
	"",
}

// specWant is the spec construction written out independently of the
// implementation's table: name, fixed sources, list, fallback.
var specWant = []struct {
	name     string
	fixed    []string
	field    string
	fallback string
}{
	{"default-src", []string{"'none'"}, "", ""},
	{"script-src", []string{"'self'", "'unsafe-inline'"}, FieldResource, ""},
	{"style-src", []string{"'self'", "'unsafe-inline'"}, FieldResource, ""},
	{"connect-src", []string{"'self'"}, FieldConnect, ""},
	{"img-src", []string{"'self'", "data:"}, FieldResource, ""},
	{"font-src", []string{"'self'"}, FieldResource, ""},
	{"media-src", []string{"'self'", "data:"}, FieldResource, ""},
	{"frame-src", nil, FieldFrame, "'none'"},
	{"object-src", []string{"'none'"}, "", ""},
	{"base-uri", nil, FieldBaseURI, "'self'"},
}

var originRE = regexp.MustCompile(`^(https|wss|http|ws)://((\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*|\[::1\])(:[1-9][0-9]{0,4})?$`)

var allFields = []string{FieldConnect, FieldResource, FieldFrame, FieldBaseURI, FieldRedirect}

// canonical is an independent, simple model of normalisation for entries New
// accepted: lowercase, no lone trailing '/', no default port.
func canonical(e string) string {
	e = strings.TrimSuffix(strings.ToLower(e), "/")
	for _, sp := range [][2]string{{"https://", ":443"}, {"wss://", ":443"}, {"http://", ":80"}, {"ws://", ":80"}} {
		if strings.HasPrefix(e, sp[0]) {
			return strings.TrimSuffix(e, sp[1])
		}
	}
	return e
}

// checkPolicy asserts every invariant of an accepted policy built from d.
func checkPolicy(t *testing.T, d Domains, p *Policy) {
	t.Helper()
	got := p.Domains()
	for _, f := range allFields {
		l := got.list(f)
		declared := d.list(f)
		if len(l) > len(declared) {
			t.Fatalf("%s: %d normalised entries from %d declared", f, len(l), len(declared))
		}
		for i, n := range l {
			if i > 0 && l[i-1] >= n {
				t.Fatalf("%s not strictly sorted: %q", f, l)
			}
			if !originRE.MatchString(n) {
				t.Fatalf("%s entry %q is not a plain origin", f, n)
			}
			if host, ok := strings.CutPrefix(n[strings.Index(n, "://")+3:], "*."); ok {
				if i := strings.IndexByte(host, ':'); i >= 0 {
					host = host[:i]
				}
				if suffix, _ := publicsuffix.PublicSuffix(host); suffix == host {
					t.Fatalf("%s wildcard %q covers the public suffix %s", f, n, host)
				}
				if suffix, _ := publicsuffix.PublicSuffix("fuzz-child." + host); suffix == "fuzz-child."+host {
					t.Fatalf("%s wildcard %q covers the public suffixes directly under %s", f, n, host)
				}
			}
			if strings.HasPrefix(n, "ws") && f != FieldConnect {
				t.Fatalf("%s has WebSocket origin %q", f, n)
			}
			if strings.HasPrefix(n, "http://") || strings.HasPrefix(n, "ws://") {
				h := n[strings.Index(n, "://")+3:]
				if strings.HasPrefix(h, "[") {
					h = h[:strings.IndexByte(h, ']')+1]
				} else if i := strings.IndexByte(h, ':'); i >= 0 {
					h = h[:i]
				}
				if h != "localhost" && h != "127.0.0.1" && h != "[::1]" {
					t.Fatalf("%s allows insecure non-local %q", f, n)
				}
			}
		}
		// Nothing invented, nothing dropped.
		want := map[string]bool{}
		for _, e := range declared {
			want[canonical(e)] = true
		}
		for _, n := range l {
			if !want[n] {
				t.Fatalf("%s entry %q matches no declared entry %q", f, n, declared)
			}
		}
		if len(want) != len(l) {
			t.Fatalf("%s: declared %q normalised to %q", f, declared, l)
		}
	}

	// Header: exactly the ten directives in order, each with exactly the
	// fixed sources and the right list, nothing else, no control bytes.
	h := p.Header()
	for i := 0; i < len(h); i++ {
		if c := h[i]; c < 0x20 || c >= 0x7f || c == ',' || c == '"' {
			t.Fatalf("header byte %q at %d: %q", c, i, h)
		}
	}
	parts := strings.Split(h, "; ")
	if len(parts) != len(specWant) {
		t.Fatalf("header has %d directives, want %d: %q", len(parts), len(specWant), h)
	}
	for i, part := range parts {
		toks := strings.Split(part, " ")
		sw := specWant[i]
		if toks[0] != sw.name {
			t.Fatalf("directive %d is %q, want %q: %q", i, toks[0], sw.name, h)
		}
		want := slices.Clone(sw.fixed)
		if sw.field != "" {
			want = append(want, got.list(sw.field)...)
		}
		if len(want) == 0 {
			want = append(want, sw.fallback)
		}
		if !slices.Equal(toks[1:], want) {
			t.Fatalf("%s sources %q, want %q", sw.name, toks[1:], want)
		}
	}

	// The header reads back to the same policy (CSP carries no redirects).
	q, err := parseHeader(h)
	if err != nil {
		t.Fatalf("parseHeader(Header()) = %v on %q", err, h)
	}
	want := got
	want.Redirect = nil
	if !equalDomains(q.Domains(), want) || q.Header() != h {
		t.Fatalf("round trip changed policy:\n got %q\nwant %q", q.Header(), h)
	}

	// Every declared origin is allowed where it was declared.
	probe := func(dir Directive, origin string) {
		u := strings.Replace(origin, "*.", "sub.", 1) + "/probe?x=1"
		if !p.Allows(dir, u) {
			t.Fatalf("Allows(%v, %q) = false for declared %q", dir, u, origin)
		}
	}
	for _, o := range got.Connect {
		probe(ConnectSrc, o)
	}
	for _, o := range got.Resource {
		for _, dir := range []Directive{ScriptSrc, StyleSrc, ImgSrc, FontSrc, MediaSrc} {
			probe(dir, o)
		}
	}
	for _, o := range got.Frame {
		probe(FrameSrc, o)
	}
	for _, o := range got.BaseURI {
		probe(BaseURI, o)
	}

	// The _meta objects carry the same lists and marshal arrays, not null.
	ui, err := json.Marshal(p.UIMeta())
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		C *[]string `json:"connectDomains"`
		R *[]string `json:"resourceDomains"`
	}
	if err := json.Unmarshal(ui, &back); err != nil || back.C == nil || back.R == nil ||
		!slices.Equal(*back.C, nonNil(got.Connect)) || !slices.Equal(*back.R, nonNil(got.Resource)) {
		t.Fatalf("UIMeta JSON %s does not carry %+v (%v)", ui, got, err)
	}
}

// checkError asserts an error from New names a real declared entry.
func checkError(t *testing.T, d Domains, err error) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T %v is not *Error", err, err)
	}
	if !slices.Contains(allFields, e.Field) {
		t.Fatalf("error field %q", e.Field)
	}
	l := d.list(e.Field)
	if e.Index < 0 || e.Index >= len(l) || l[e.Index] != e.Value {
		t.Fatalf("error %s[%d] %q does not point into %q", e.Field, e.Index, e.Value, l)
	}
	if e.Reason == "" {
		t.Fatal("empty reason")
	}
	for _, c := range e.Error() {
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) {
			t.Fatalf("Error() has raw control character %U: %q", c, e.Error())
		}
	}
	// The entries before the bad one are valid on their own.
	if _, err := New(put(e.Field, l[:e.Index]...)); err != nil {
		t.Fatalf("entries before %s[%d] are invalid too: %v", e.Field, e.Index, err)
	}
}

func FuzzNew(f *testing.F) {
	for _, s := range nastySeeds {
		f.Add(s, s, s, s, s)
		f.Add("https://ok.example.com"+fuzzSep+s, s, "", "", "")
	}
	f.Add(strings.Join(fullDomains.Connect, fuzzSep), strings.Join(fullDomains.Resource, fuzzSep),
		strings.Join(fullDomains.Frame, fuzzSep), strings.Join(fullDomains.BaseURI, fuzzSep), strings.Join(fullDomains.Redirect, fuzzSep))
	f.Fuzz(func(t *testing.T, connect, resource, frame, baseURI, redirect string) {
		d := Domains{
			Connect:  splitEntries(connect),
			Resource: splitEntries(resource),
			Frame:    splitEntries(frame),
			BaseURI:  splitEntries(baseURI),
			Redirect: splitEntries(redirect),
		}
		p, err := New(d)
		if err != nil {
			checkError(t, d, err)
			return
		}
		checkPolicy(t, d, p)
	})
}

func FuzzHeader(f *testing.F) {
	f.Add(emptyHeader)
	f.Add(mustNewF(fullDomains).Header())
	for _, s := range nastySeeds {
		f.Add(s)
		f.Add(strings.Replace(emptyHeader, "connect-src 'self'", "connect-src 'self' "+s, 1))
	}
	f.Fuzz(func(t *testing.T, h string) {
		// h as a header: if it parses, it is a fixed point after one
		// normalisation, and every origin in it came from h.
		if p, err := parseHeader(h); err == nil {
			d := p.Domains()
			tokens := map[string]bool{}
			for _, tok := range strings.FieldsFunc(h, func(r rune) bool { return r == ';' || r == ' ' || r == '\t' || r == '\f' }) {
				tokens[canonical(tok)] = true
			}
			for _, f := range allFields {
				for _, o := range d.list(f) {
					if !tokens[o] {
						t.Fatalf("parseHeader invented %s %q from %q", f, o, h)
					}
				}
			}
			checkPolicy(t, d, p)
		}
		// h as an entry of every list: New, Header, parseHeader round trip.
		for _, f := range allFields {
			d := put(f, h)
			p, err := New(d)
			if err != nil {
				checkError(t, d, err)
				continue
			}
			checkPolicy(t, d, p)
		}
	})
}

func mustNewF(d Domains) *Policy {
	p, err := New(d)
	if err != nil {
		panic(err)
	}
	return p
}

// TestCanonicalModel keeps the fuzz oracle honest.
func TestCanonicalModel(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://A.COM:443/":   "https://a.com",
		"wss://a.com:443":      "wss://a.com",
		"http://localhost:80":  "http://localhost",
		"ws://[::1]:80":        "ws://[::1]",
		"https://a.com:80":     "https://a.com:80",
		"http://localhost:443": "http://localhost:443",
	} {
		if got := canonical(in); got != want {
			t.Errorf("canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

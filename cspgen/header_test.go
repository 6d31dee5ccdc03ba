package cspgen

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// checkGolden compares got with testdata/name, or rewrites it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, *update)
}

// fullDomains declares every list, unsorted, with duplicates and
// non-canonical spellings, so the goldens show normalisation too.
var fullDomains = Domains{
	Connect:  []string{"wss://rt.example.com:443", "https://api.example.com", "http://localhost:5173", "HTTPS://API.EXAMPLE.COM/"},
	Resource: []string{"https://cdn.example.com", "https://*.static.example.com", "https://fonts.gstatic.com:443"},
	Frame:    []string{"https://www.youtube-nocookie.com"},
	BaseURI:  []string{"https://cdn.example.com"},
	Redirect: []string{"https://checkout.example.com"},
}

const emptyHeader = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"connect-src 'self'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; " +
	"frame-src 'none'; object-src 'none'; base-uri 'self'"

func TestHeaderEmpty(t *testing.T) {
	p, err := New(Domains{})
	if err != nil {
		t.Fatal(err)
	}
	var zero Policy
	var nilp *Policy
	for name, got := range map[string]string{"New": p.Header(), "zero": zero.Header(), "nil": nilp.Header()} {
		if got != emptyHeader {
			t.Errorf("%s: Header()\n got %q\nwant %q", name, got, emptyHeader)
		}
	}
}

func TestHeaderFull(t *testing.T) {
	p, err := New(fullDomains)
	if err != nil {
		t.Fatal(err)
	}
	h := p.Header()
	checkGolden(t, "full.header", []byte(h+"\n"))
	if strings.Contains(h, "  ") || strings.Contains(h, " ;") || strings.HasSuffix(h, " ") {
		t.Errorf("header has stray spaces: %q", h)
	}
	// The header is the Directives joined, in spec order.
	var parts []string
	for _, d := range p.Directives() {
		parts = append(parts, strings.Join(append([]string{d.Name}, d.Sources...), " "))
	}
	if j := strings.Join(parts, "; "); j != h {
		t.Errorf("Directives joined = %q, Header = %q", j, h)
	}
}

func TestMetaJSON(t *testing.T) {
	full, err := New(fullDomains)
	if err != nil {
		t.Fatal(err)
	}
	empty, err := New(Domains{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		v    any
		want string // inline golden; "" means testdata/name
	}{
		{"empty.ui", empty.UIMeta(), `{"connectDomains":[],"resourceDomains":[]}`},
		{"empty.openai", empty.OpenAIMeta(), `{"connect_domains":[],"resource_domains":[]}`},
		{"redirect only", mustNew(t, Domains{Redirect: []string{"https://pay.example.com"}}).OpenAIMeta(),
			`{"connect_domains":[],"redirect_domains":["https://pay.example.com"],"resource_domains":[]}`},
		{"baseUri only", mustNew(t, Domains{BaseURI: []string{"https://cdn.example.com"}}).UIMeta(),
			`{"baseUriDomains":["https://cdn.example.com"],"connectDomains":[],"resourceDomains":[]}`},
		{"baseUri only, ChatGPT casing", mustNew(t, Domains{BaseURI: []string{"https://cdn.example.com"}}).OpenAIMeta(),
			`{"base_uri_domains":["https://cdn.example.com"],"connect_domains":[],"resource_domains":[]}`},
		{"wasmUnsafeEval (draft)", mustNew(t, Domains{WasmUnsafeEval: true}).UIMeta(),
			`{"connectDomains":[],"resourceDomains":[],"wasmUnsafeEval":true}`},
		{"wasmUnsafeEval has no ChatGPT key", mustNew(t, Domains{WasmUnsafeEval: true}).OpenAIMeta(),
			`{"connect_domains":[],"resource_domains":[]}`},
		{"full.ui.json", full.UIMeta(), ""},
		{"full.openai.json", full.OpenAIMeta(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				checkGolden(t, tt.name, append(got, '\n'))
			} else if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestMetaAlwaysListsConnectAndResource pins the one output rule of the CSP
// wire objects that is not the wire types' own: connect and resource lists
// are always present as arrays (never absent, never null), even when nothing
// is declared, while the other lists are absent when empty. The wire types
// (assets.UICSP, assets.WidgetCSP) write a nil list as absent so a manifest
// round-trips, so the rule lives in UIMeta and OpenAIMeta alone.
func TestMetaAlwaysListsConnectAndResource(t *testing.T) {
	tests := []struct {
		name string
		p    *Policy
	}{
		{"nil policy", nil},
		{"zero policy", &Policy{}},
		{"nothing declared", mustNew(t, Domains{})},
		{"frame only", mustNew(t, Domains{Frame: []string{"https://embed.example.com"}})},
		{"connect only", mustNew(t, Domains{Connect: []string{"https://api.example.com"}})},
		{"resource only", mustNew(t, Domains{Resource: []string{"https://cdn.example.com"}})},
		{"full", mustNew(t, fullDomains)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.p.Domains()
			ui, openai := tt.p.UIMeta(), tt.p.OpenAIMeta()
			checkMetaLists(t, &ui, map[string][]string{"connectDomains": nonNil(d.Connect), "resourceDomains": nonNil(d.Resource),
				"frameDomains": d.Frame, "baseUriDomains": d.BaseURI})
			checkMetaLists(t, &openai, map[string][]string{"connect_domains": nonNil(d.Connect), "resource_domains": nonNil(d.Resource),
				"frame_domains": d.Frame, "redirect_domains": d.Redirect, "base_uri_domains": d.BaseURI})
		})
	}
}

// checkMetaLists marshals v and checks each key of want: a nil list must be
// absent, any other present as exactly that array.
func checkMetaLists(t *testing.T, v any, want map[string][]string) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for key, l := range want {
		raw, present := got[key]
		if l == nil {
			if present {
				t.Errorf("%s: %s is %s, want absent", b, key, raw)
			}
			continue
		}
		var back []string
		if !present || string(raw) == "null" || json.Unmarshal(raw, &back) != nil || back == nil || !slices.Equal(back, l) {
			t.Errorf("%s: %s = %s, want the array %q", b, key, raw, l)
		}
	}
}

func mustNew(t *testing.T, d Domains) *Policy {
	t.Helper()
	p, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseHeaderRoundTrip(t *testing.T) {
	for _, d := range []Domains{{}, fullDomains, {Frame: []string{"https://a.com", "https://b.com"}}} {
		p := mustNew(t, d)
		q, err := parseHeader(p.Header())
		if err != nil {
			t.Fatalf("parseHeader(%q): %v", p.Header(), err)
		}
		if q.Header() != p.Header() {
			t.Errorf("round trip\n got %q\nwant %q", q.Header(), p.Header())
		}
		got, want := q.Domains(), p.Domains()
		want.Redirect = nil
		if !equalDomains(got, want) {
			t.Errorf("round trip domains %+v, want %+v", got, want)
		}
	}
}

func equalDomains(a, b Domains) bool {
	return slices.Equal(a.Connect, b.Connect) && slices.Equal(a.Resource, b.Resource) &&
		slices.Equal(a.Frame, b.Frame) && slices.Equal(a.BaseURI, b.BaseURI) && slices.Equal(a.Redirect, b.Redirect)
}

func TestParseHeaderLenient(t *testing.T) {
	// Order, case and whitespace vary; origins are normalised.
	h := " BASE-URI 'SELF' ;object-src 'none';frame-src 'none'; media-src data: 'self' https://CDN.example.com:443\t;" +
		"font-src 'self' https://cdn.example.com; img-src 'self' data: https://cdn.example.com/; connect-src 'self';;" +
		"style-src 'unsafe-inline' 'self' https://cdn.example.com; script-src 'self' 'unsafe-inline' https://cdn.example.com; default-src 'none'"
	p, err := parseHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Domains().Resource; !slices.Equal(got, []string{"https://cdn.example.com"}) {
		t.Errorf("resource = %q", got)
	}
}

func TestParseHeaderRejects(t *testing.T) {
	base := mustNew(t, Domains{Resource: []string{"https://cdn.example.com"}}).Header()
	tests := []struct {
		name, header, want string
	}{
		{"empty", "", "missing directive \"default-src\""},
		{"extra directive", base + "; worker-src *", `"worker-src" is not part`},
		{"duplicate", base + "; script-src *", "repeated"},
		{"comma", strings.Replace(base, ";", ",", 1), "second policy"},
		{"newline", base + "\r\nX-Injected: 1", "control character"},
		{"non-ascii", base + " https://ü.com", "non-ASCII"},
		{"bad name", "scr!pt-src 'self'", "invalid directive name"},
		{"missing fixed", strings.Replace(base, "connect-src 'self'", "connect-src", 1), "connect-src lacks 'self'"},
		{"twice fixed", strings.Replace(base, "connect-src 'self'", "connect-src 'self' 'self'", 1), "twice"},
		{"extra keyword", strings.Replace(base, "script-src 'self'", "script-src 'self' 'unsafe-eval'", 1), "'unsafe-eval' are not origins"},
		{"star", strings.Replace(base, "connect-src 'self'", "connect-src 'self' *", 1), "bare *"},
		{"resource mismatch", strings.Replace(base, "font-src 'self' https://cdn.example.com", "font-src 'self'", 1), "script-src and font-src list different origins"},
		{"frame mixes none", strings.Replace(base, "frame-src 'none'", "frame-src 'none' https://a.com", 1), "mixes 'none' with origins"},
		{"frame none twice", strings.Replace(base, "frame-src 'none'", "frame-src 'none' 'none'", 1), "lists 'none' twice"},
		{"frame empty", strings.Replace(base, "frame-src 'none'", "frame-src", 1), "has no sources"},
		{"object-src origin", strings.Replace(base, "object-src 'none'", "object-src 'none' https://a.com", 1), "unexpected source"},
		{"object-src missing none", strings.Replace(base, "object-src 'none'", "object-src", 1), "lacks 'none'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parseHeader(tt.header)
			if err == nil {
				t.Fatalf("accepted %q as %q", tt.header, p.Header())
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestParseDirectives(t *testing.T) {
	got, err := parseDirectives("  Default-Src 'none' ;; img-src\t'self'  data: ;upgrade-insecure-requests; ")
	if err != nil {
		t.Fatal(err)
	}
	want := []HeaderDirective{
		{"default-src", []string{"'none'"}},
		{"img-src", []string{"'self'", "data:"}},
		{"upgrade-insecure-requests", []string{}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d directives %+v, want %+v", len(got), got, want)
	}
	for i := range want {
		if got[i].Name != want[i].Name || !slices.Equal(got[i].Sources, want[i].Sources) {
			t.Errorf("directive %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestWasmUnsafeEvalHeader checks the draft csp.wasmUnsafeEval: script-src
// alone gains 'wasm-unsafe-eval' (before the declared origins, as the
// ext-apps basic host writes it), With keeps it, and nothing else changes.
func TestWasmUnsafeEvalHeader(t *testing.T) {
	plain := mustNew(t, Domains{Resource: []string{"https://cdn.example.com"}})
	wasm := mustNew(t, Domains{Resource: []string{"https://cdn.example.com"}, WasmUnsafeEval: true})
	want := strings.Replace(plain.Header(), "script-src 'self' 'unsafe-inline' https://cdn.example.com", "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval' https://cdn.example.com", 1)
	if want == plain.Header() {
		t.Fatalf("unexpected plain header %q", plain.Header())
	}
	if wasm.Header() != want {
		t.Errorf("header = %q\nwant     %q", wasm.Header(), want)
	}
	merged, err := wasm.With(Domains{Connect: []string{"https://api.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(merged.Header(), "'wasm-unsafe-eval'") || !merged.Domains().WasmUnsafeEval {
		t.Errorf("With dropped wasmUnsafeEval: %q", merged.Header())
	}
	if n := strings.Count(wasm.Header(), "wasm-unsafe-eval"); n != 1 {
		t.Errorf("'wasm-unsafe-eval' appears %d times, want once (script-src)", n)
	}
}

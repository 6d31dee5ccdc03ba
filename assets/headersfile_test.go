package assets_test

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

// headerRule is one parsed rule of a `_headers` file.
type headerRule struct {
	pattern string
	header  http.Header
}

// parseHeadersFile reads the `_headers` format as Cloudflare Pages and
// Netlify do: a line starting at column 0 is a path pattern (a trailing
// "*" matches any rest, slashes included), indented "Name: value" lines
// are its headers, "#" starts a comment.
func parseHeadersFile(t *testing.T, b []byte) []headerRule {
	t.Helper()
	var rules []headerRule
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#"):
		case line[0] != ' ' && line[0] != '\t':
			if !strings.HasPrefix(line, "/") {
				t.Fatalf("_headers:%d: pattern %q does not start with /", n, line)
			}
			rules = append(rules, headerRule{pattern: line, header: http.Header{}})
		default:
			name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
			if !ok || len(rules) == 0 {
				t.Fatalf("_headers:%d: %q is not a header of a rule", n, line)
			}
			rules[len(rules)-1].header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
	}
	return rules
}

// headersFor applies every matching rule to p; a header set by several
// rules is joined with ", ", as both hosts do.
func headersFor(rules []headerRule, p string) http.Header {
	out := http.Header{}
	for _, r := range rules {
		match := r.pattern == p
		if prefix, ok := strings.CutSuffix(r.pattern, "*"); ok {
			match = strings.HasPrefix(p, prefix)
		}
		if !match {
			continue
		}
		for k, vs := range r.header {
			for _, v := range vs {
				if prev := out.Get(k); prev != "" {
					v = prev + ", " + v
				}
				out.Set(k, v)
			}
		}
	}
	return out
}

// TestStaticHeaders: the `_headers` rules, parsed back, give every file of
// a dist/ (current and retained builds, precompressed sidecars,
// manifest.json) exactly the headers the origin handler sends with it,
// under the root and under a public URL's path.
func TestStaticHeaders(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct{ publicURL, prefix string }{{"", "/"}, {"https://cdn.example.com/widgets/", "/widgets/"}} {
		m := *f.reg.Manifest()
		m.PublicURL = tc.publicURL
		rules := parseHeadersFile(t, assets.StaticHeaders(&m))
		type check struct{ served, asked, encoding string }
		checks := []check{{assets.ManifestFile, assets.ManifestFile, ""}}
		for _, file := range m.Files {
			checks = append(checks, check{file.Path, file.Path, ""})
			for _, e := range file.Encodings {
				// A static host serves the sidecar as a file; the origin
				// sends those bytes for the original path with that coding.
				checks = append(checks, check{e.Path, file.Path, e.Name})
			}
		}
		compared := 0
		for _, c := range checks {
			req := httptest.NewRequest("GET", "/"+c.asked, nil)
			if c.encoding != "" {
				req.Header.Set("Accept-Encoding", c.encoding)
			}
			rec := httptest.NewRecorder()
			f.h.ServeHTTP(rec, req)
			if rec.Code != 200 || rec.Header().Get("Content-Encoding") != c.encoding {
				t.Fatalf("origin answered %s with %d %q", c.asked, rec.Code, rec.Header().Get("Content-Encoding"))
			}
			got := headersFor(rules, path.Join(tc.prefix, c.served))
			if len(got) == 0 {
				t.Errorf("%s%s: no rule matches", tc.prefix, c.served)
			}
			for k := range got {
				if want := strings.Join(rec.Header().Values(k), ", "); got.Get(k) != want {
					t.Errorf("%s%s: _headers gives %s: %q, origin sends %q", tc.prefix, c.served, k, got.Get(k), want)
				}
				compared++
			}
			for _, k := range []string{"Cache-Control", "Access-Control-Allow-Origin", "Cross-Origin-Resource-Policy", "Timing-Allow-Origin", "X-Content-Type-Options", "Vary"} {
				if got.Get(k) == "" {
					t.Errorf("%s%s: _headers does not set %s", tc.prefix, c.served, k)
				}
			}
		}
		if compared < 6*len(checks) {
			t.Errorf("compared %d headers over %d files", compared, len(checks))
		}
		if len(rules) > 100 {
			t.Errorf("%d rules: Cloudflare Pages reads 100", len(rules))
		}
	}
}

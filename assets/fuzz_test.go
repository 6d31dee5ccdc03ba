package assets_test

import (
	"bytes"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
)

// FuzzHandlerPath feeds arbitrary request targets and Accept-Encoding values
// to the origin. Whatever the input, it must not panic, must answer with a
// known status, and a 200 must carry exactly the bytes of a manifest file (or
// manifest.json, an alias or /healthz) in the announced encoding.
func FuzzHandlerPath(f *testing.F) {
	for _, s := range []string{"/", "/manifest.json", "/counter.html", "/healthz", "/assets/", "/../manifest.json",
		"/assets/%2e%2e/manifest.json", "/assets%2fx.js", "//x", "/a\\b", "/%00", "/assets/chart-X.js?x=1", "/./counter.html"} {
		f.Add(s, "br, gzip")
		f.Add(s, "")
	}
	d, err := assetstest.Write(f.TempDir(), assetstest.Options{})
	if err != nil {
		f.Fatal(err)
	}
	reg, err := assets.Load(os.DirFS(d.Dir))
	if err != nil {
		f.Fatal(err)
	}
	bodies := map[string]bool{"ok\n": true}
	for _, file := range d.Manifest.Files {
		for _, p := range append([]string{file.Path}, encPaths(file)...) {
			b, err := os.ReadFile(d.Dir + "/" + p)
			if err != nil {
				f.Fatal(err)
			}
			bodies[string(b)] = true
		}
	}
	man, _ := os.ReadFile(d.Dir + "/" + assets.ManifestFile)
	bodies[string(man)] = true
	h := reg.Handler()
	f.Fuzz(func(t *testing.T, target, ae string) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		u, err := url.ParseRequestURI(target)
		if err != nil {
			return
		}
		req := httptest.NewRequest("GET", "http://origin.test/", nil)
		req.URL = u
		req.Header.Set("Accept-Encoding", ae)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case 200:
			if !bodies[rec.Body.String()] {
				t.Fatalf("%q: 200 with a body that is no dist file (%d bytes)", target, rec.Body.Len())
			}
			if cl := rec.Header().Get("Content-Length"); cl != itoa(int64(rec.Body.Len())) {
				t.Fatalf("%q: Content-Length %s for %d bytes", target, cl, rec.Body.Len())
			}
			if enc := rec.Header().Get("Content-Encoding"); enc != "" && enc != "br" && enc != "gzip" {
				t.Fatalf("%q: Content-Encoding %q", target, enc)
			}
		case 400, 404, 406:
			if bytes.Contains(rec.Body.Bytes(), []byte("<html")) {
				t.Fatalf("%q: error page leaks a file", target)
			}
		default:
			t.Fatalf("%q: unexpected status %d", target, rec.Code)
		}
	})
}

func encPaths(f assets.File) []string {
	var out []string
	for _, e := range f.Encodings {
		out = append(out, e.Path)
	}
	return out
}

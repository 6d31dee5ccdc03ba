package assets_test

import (
	"bytes"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

// realDist is a dist/ written by the real bundler (`widgetd build` over
// widgets/, via go generate in examples/mcpserver), committed with the example.
const realDist = "../examples/mcpserver/dist"

// TestRealBuild loads the bundler's own output and serves and reads every
// widget, so the manifest contract is checked end to end.
func TestRealBuild(t *testing.T) {
	reg, err := assets.Load(os.DirFS(realDist))
	if err != nil {
		t.Fatalf("Load(%s): %v", realDist, err)
	}
	man := reg.Manifest()
	if len(man.Widgets) == 0 {
		t.Fatal("real build has no widgets")
	}
	h := reg.Handler()
	for _, f := range man.Files {
		want, err := os.ReadFile(realDist + "/" + f.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range append([]string{""}, encNames(f)...) {
			req := httptest.NewRequest("GET", "/"+f.Path, nil)
			if enc != "" {
				req.Header.Set("Accept-Encoding", enc)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 || rec.Header().Get("Content-Encoding") != enc || rec.Header().Get("Content-Type") != f.ContentType {
				t.Errorf("%s (%q): %d %v", f.Path, enc, rec.Code, rec.Header())
				continue
			}
			body := rec.Body.Bytes()
			if enc != "" {
				body = decode(t, enc, body)
			}
			if !bytes.Equal(body, want) {
				t.Errorf("%s (%q): body differs from the file", f.Path, enc)
			}
		}
	}
	for _, w := range man.Widgets {
		html, _ := os.ReadFile(realDist + "/" + w.HTML)
		for _, p := range w.Profiles {
			for _, uri := range []string{p.URI, p.AliasURI} {
				c, err := reg.Read(uri, assets.Client{})
				if err != nil || c.Text != string(html) || c.MIMEType != p.MIMEType {
					t.Errorf("Read(%s): %v (mime %s)", uri, err, c.MIMEType)
					continue
				}
				assertBothShapes(t, uri, c.Meta)
			}
		}
		if _, err := reg.ToolMeta(w.Name, assets.ToolOptions{}); err != nil {
			t.Errorf("ToolMeta(%s): %v", w.Name, err)
		}
	}
}

func encNames(f assets.File) []string {
	var out []string
	for _, e := range f.Encodings {
		out = append(out, e.Name)
	}
	return out
}

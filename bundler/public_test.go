package bundler

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/diag"
)

// warns reports whether a diagnostic's message contains text.
func warns(diags []diag.Diagnostic, text string) bool {
	for _, d := range diags {
		if strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}

// TestPublicDir: with a public URL the project's public/ is copied to the
// output root unhashed and served without the immutable cache header; a
// change to it rebuilds; a name that clashes with widgetd's output fails;
// an inline build copies nothing and says so.
func TestPublicDir(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"widgets/w/widget.json":  `{}`,
		"widgets/w/index.ts":     `document.body.append(import.meta.env.BASE_URL + "img/logo.svg");`,
		"public/img/logo.svg":    `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"public/.DS_Store":       `junk`,
		"widgets/w/public/x.png": `png`,
	})
	cache := t.TempDir()
	opts := Options{Root: root, PublicURL: "https://cdn.example.com/w", CacheDir: cache}
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := assets.Load(os.DirFS(res.OutDir))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	reg.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/img/logo.svg", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<svg") || strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Errorf("GET /img/logo.svg: %d %q, Cache-Control %q", rec.Code, rec.Body.String(), rec.Header().Get("Cache-Control"))
	}
	if _, err := os.Stat(filepath.Join(res.OutDir, ".DS_Store")); err == nil {
		t.Error("a dotfile of public/ was copied")
	}
	if !warns(res.Warnings, "a widget's public/ is not copied") {
		t.Errorf("no warning about the widget's own public/: %v", res.Warnings)
	}

	writeFiles(t, root, map[string]string{"public/img/logo.svg": `<svg xmlns="http://www.w3.org/2000/svg" id="v2"/>`})
	res, err = Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(res.OutDir, "img", "logo.svg")); res.UpToDate || !strings.Contains(string(data), "v2") {
		t.Errorf("a changed public/ file was not rebuilt (up to date %v): %s", res.UpToDate, data)
	}

	writeFiles(t, root, map[string]string{"public/manifest.json": `{}`})
	if _, err := Build(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "public/manifest.json would clash") {
		t.Errorf("clash: err = %v", err)
	}
	if err := os.Remove(filepath.Join(root, "public", "manifest.json")); err != nil {
		t.Fatal(err)
	}

	opts.PublicURL = ""
	opts.OutDir = filepath.Join(root, "inline-dist")
	res, err = Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(res.OutDir, "img")); err == nil {
		t.Error("an inline build copied public/")
	}
	if !warns(res.Warnings, "public/ is not copied in an inline build") {
		t.Errorf("no warning about public/ in an inline build: %v", res.Warnings)
	}
}

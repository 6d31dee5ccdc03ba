package assets_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
)

func load(t testing.TB, opts ...assets.Option) (*assets.Registry, *assetstest.Dist) {
	t.Helper()
	return assetstest.Load(t, assetstest.Options{}, opts...)
}

func TestLoad(t *testing.T) {
	reg, d := load(t)
	if got := reg.Widgets(); strings.Join(got, ",") != "chart,counter" {
		t.Errorf("Widgets() = %v", got)
	}
	if reg.Manifest().BuildID != d.Manifest.BuildID {
		t.Errorf("BuildID = %q, want %q", reg.Manifest().BuildID, d.Manifest.BuildID)
	}
	// current hashed + alias per profile per widget, plus the old counter URIs
	if got := len(reg.URIs()); got != 2*2*2+2 {
		t.Errorf("URIs() = %d entries: %v", got, reg.URIs())
	}
	if _, err := reg.Widget("nope"); !errors.Is(err, assets.ErrNotFound) {
		t.Errorf("Widget(nope) error = %v, want ErrNotFound", err)
	}
}

// TestLoadErrors damages a good dist in one way per case and checks that Load
// fails with an error naming the problem.
func TestLoadErrors(t *testing.T) {
	// Each damage breaks a good dist in one way and returns what the error
	// must mention.
	tests := []struct {
		name   string
		damage func(t *testing.T, d *assetstest.Dist) string
	}{
		{"no manifest", func(t *testing.T, d *assetstest.Dist) string { rm(t, d, assets.ManifestFile); return "manifest.json" }},
		{"bad json", func(t *testing.T, d *assetstest.Dist) string {
			write(t, d, assets.ManifestFile, "{")
			return "manifest.json"
		}},
		{"future version", func(t *testing.T, d *assetstest.Dist) string {
			editManifest(t, d, func(m *assets.Manifest) { m.Version = 99 })
			return "version 99"
		}},
		{"missing file", func(t *testing.T, d *assetstest.Dist) string { rm(t, d, d.Asset); return d.Asset }},
		{"missing encoding", func(t *testing.T, d *assetstest.Dist) string { rm(t, d, d.Asset+".br"); return d.Asset + ".br" }},
		{"changed file", func(t *testing.T, d *assetstest.Dist) string {
			write(t, d, d.Asset, strings.Repeat("x", int(size(t, d, d.Asset))))
			return "sha256"
		}},
		{"changed size", func(t *testing.T, d *assetstest.Dist) string {
			write(t, d, d.Asset+".gz", "x")
			return d.Asset + ".gz\": size 1"
		}},
		{"html not in files", func(t *testing.T, d *assetstest.Dist) string {
			editManifest(t, d, func(m *assets.Manifest) { m.Widgets[0].HTML = "nope.html" })
			return `"nope.html"`
		}},
		{"bad mime", func(t *testing.T, d *assetstest.Dist) string {
			editManifest(t, d, func(m *assets.Manifest) { m.Widgets[0].Profiles[0].MIMEType = "text/html" })
			return "MIME type"
		}},
		{"bad uri", func(t *testing.T, d *assetstest.Dist) string {
			editManifest(t, d, func(m *assets.Manifest) { m.Widgets[0].Profiles[0].URI = "https://x/y.html" })
			return "ui://"
		}},
		{"traversal path", func(t *testing.T, d *assetstest.Dist) string {
			editManifest(t, d, func(m *assets.Manifest) { m.Files[0].Path = "../etc/passwd" })
			return "not a clean"
		}},
		{"retained html missing", func(t *testing.T, d *assetstest.Dist) string {
			editManifest(t, d, func(m *assets.Manifest) {
				bw := m.Builds[1].Widgets["counter"]
				bw.HTML = "counter.gone.html"
				m.Builds[1].Widgets["counter"] = bw
			})
			return "counter.gone.html"
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := assetstest.New(t, assetstest.Options{})
			want := tc.damage(t, d)
			_, err := assets.Load(os.DirFS(d.Dir))
			if err == nil {
				t.Fatal("Load succeeded on a damaged dist")
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		})
	}
}

func rm(t *testing.T, d *assetstest.Dist, p string) {
	t.Helper()
	if err := os.Remove(filepath.Join(d.Dir, p)); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, d *assetstest.Dist, p, s string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(d.Dir, p), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func size(t *testing.T, d *assetstest.Dist, p string) int64 {
	t.Helper()
	fi, err := os.Stat(filepath.Join(d.Dir, p))
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func editManifest(t *testing.T, d *assetstest.Dist, edit func(*assets.Manifest)) {
	t.Helper()
	raw, err := fs.ReadFile(os.DirFS(d.Dir), assets.ManifestFile)
	if err != nil {
		t.Fatal(err)
	}
	var m assets.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	edit(&m)
	raw, _ = json.Marshal(&m)
	write(t, d, assets.ManifestFile, string(raw))
}

// TestNoBundlerDeps keeps the runtime small: a server embedding dist/ must not
// link esbuild, minify or the bundler.
func TestNoBundlerDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, forbidden := range []string{"github.com/evanw/esbuild", "github.com/tdewolff/minify", "github.com/widgetd/widgetd/bundler", "github.com/andybalholm/brotli"} {
		if strings.Contains(string(out), forbidden) {
			t.Errorf("assets depends on %s", forbidden)
		}
	}
	if !strings.Contains(string(out), "github.com/widgetd/widgetd/assets") {
		t.Errorf("go list -deps output looks wrong:\n%s", out)
	}
}

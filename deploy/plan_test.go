package deploy

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

// exampleDist copies the committed example dist (examples/mcpserver/dist)
// into a temporary folder the test may damage.
func exampleDist(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dst := filepath.Join(t.TempDir(), "dist")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(filepath.Dir(file), "..", "examples", "mcpserver", "dist"))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestReadDistRefuses: a folder that is no complete build is refused
// before any request, with what to do about it.
func TestReadDistRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dist string)
		want   string
	}{
		{"no manifest", func(t *testing.T, dist string) { os.Remove(filepath.Join(dist, assets.ManifestFile)) },
			"has no manifest.json: run widgetd build first"},
		{"file changed", func(t *testing.T, dist string) {
			m, _ := filepath.Glob(filepath.Join(dist, "hello.*.html"))
			appendToFile(t, m[0], "<!-- edited -->")
		}, "is not a complete widgetd build"},
		{"file missing", func(t *testing.T, dist string) {
			m, _ := filepath.Glob(filepath.Join(dist, "weather.*.html"))
			os.Remove(m[0])
		}, "is not a complete widgetd build"},
		{"not a manifest", func(t *testing.T, dist string) {
			os.WriteFile(filepath.Join(dist, assets.ManifestFile), []byte(`{"version": 99}`), 0o644)
		}, "is not a complete widgetd build"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dist := exampleDist(t)
			tc.damage(t, dist)
			_, err := readDist(dist, false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("readDist: %v; want an error with %q", err, tc.want)
			}
		})
	}
}

// TestReadDistPhases: the hashed files come before the documents, which
// come before _headers and the manifest; sidecars are planned only when
// asked for, but always kept by --prune.
func TestReadDistPhases(t *testing.T) {
	dist := exampleDist(t)
	for _, sidecars := range []bool{false, true} {
		p, err := readDist(dist, sidecars)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]int{}
		for _, o := range p.objects {
			seen[o.phase]++
			isDoc := strings.HasSuffix(strings.TrimSuffix(strings.TrimSuffix(o.key, ".br"), ".gz"), ".html")
			switch {
			case o.key == assets.ManifestFile && o.phase != phaseManifest,
				o.key == assets.HeadersFile && o.phase != phaseHeaders,
				isDoc && o.phase != phaseDocuments:
				t.Errorf("%s in phase %d", o.key, o.phase)
			case (o.contentEncoding != "") != (strings.HasSuffix(o.key, ".br") || strings.HasSuffix(o.key, ".gz")):
				t.Errorf("%s: Content-Encoding %q", o.key, o.contentEncoding)
			case o.contentEncoding != "" && !sidecars:
				t.Errorf("%s planned without sidecars", o.key)
			}
		}
		if seen[phaseManifest] != 1 || seen[phaseHeaders] != 1 || seen[phaseDocuments] == 0 {
			t.Errorf("sidecars %v: objects per phase %v", sidecars, seen)
		}
		for _, f := range p.manifest.Files {
			for _, e := range f.Encodings {
				if !p.keep[e.Path] {
					t.Errorf("sidecars %v: --prune would delete %s", sidecars, e.Path)
				}
			}
		}
	}
}

// TestReadDistWritesHeadersOfOlderBuilds: a dist/ from before widgetd
// build wrote _headers still gets one, made by assets.StaticHeaders.
func TestReadDistWritesHeadersOfOlderBuilds(t *testing.T) {
	dist := exampleDist(t)
	want, err := os.ReadFile(filepath.Join(dist, assets.HeadersFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dist, assets.HeadersFile)); err != nil {
		t.Fatal(err)
	}
	p, err := readDist(dist, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range p.objects {
		if o.key == assets.HeadersFile && string(o.body) != string(want) {
			t.Errorf("_headers made for the older build differs from the one widgetd build writes:\n%s\nwant\n%s", o.body, want)
		}
		if o.key == assets.HeadersFile {
			return
		}
	}
	t.Error("no _headers planned")
}

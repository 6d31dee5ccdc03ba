package bundler

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler/internal/precompress"
	"github.com/widgetd/widgetd/bundler/layout"
)

// TestCompressionPolicy checks which files get .br/.gz sidecars: files a
// browser fetches over HTTP (external JS and CSS) always do; the widget HTML
// documents, which hosts read through resources/read, only when asked for (by
// option or by widgetd.json). Whatever the policy, the assets handler serves
// every file: the identity bytes when no variant exists, the variant when one
// does.
func TestCompressionPolicy(t *testing.T) {
	cases := []struct {
		name        string
		opt         bool   // Options.PrecompressHTML
		projectFile string // widgetd.json content, "" for none
		wantHTML    bool   // HTML documents have sidecars
	}{
		{"default", false, "", false},
		{"option", true, "", true},
		{"project file", false, `{"precompressHtml": true}`, true},
		{"project file off", false, `{"precompressHtml": false}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := copyTree(t, "testdata/shells")
			if tc.projectFile != "" {
				if err := os.WriteFile(filepath.Join(root, layout.ProjectConfigFile), []byte(tc.projectFile), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Build(context.Background(), Options{Root: root, PublicURL: "https://cdn.example.com/w",
				OutDir: filepath.Join(t.TempDir(), "dist"), NoCache: true, PrecompressHTML: tc.opt})
			if err != nil {
				t.Fatal(err)
			}
			docs := map[string]bool{}
			for _, w := range res.Manifest.Widgets {
				docs[w.HTML] = true
			}
			var sawDoc, sawAsset bool
			for _, f := range res.Manifest.Files {
				big := f.Size >= precompress.MinSize && precompress.Compressible(f.ContentType)
				has := len(f.Encodings) > 0
				switch {
				case docs[f.Path]:
					sawDoc = true
					if has != (tc.wantHTML && big) {
						t.Errorf("%s: encodings %v, want sidecars: %v", f.Path, f.Encodings, tc.wantHTML && big)
					}
				case big:
					sawAsset = true
					if !has {
						t.Errorf("%s (served over HTTP, %d B): no encodings", f.Path, f.Size)
					}
				}
			}
			if !sawDoc || !sawAsset {
				t.Fatalf("fixture lacks an HTML document (%v) or a compressible external file (%v)", sawDoc, sawAsset)
			}
			serveEveryFile(t, res.OutDir)
		})
	}
}

// serveEveryFile loads dir with package assets and checks that each file is
// served to a client accepting br and gzip: with the best variant the manifest
// lists, or as identity when it lists none.
func serveEveryFile(t *testing.T, dir string) {
	t.Helper()
	reg, err := assets.Load(os.DirFS(dir))
	if err != nil {
		t.Fatalf("assets.Load: %v", err)
	}
	h := reg.Handler()
	for _, f := range reg.Manifest().Files {
		want, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("GET", "/"+f.Path, nil)
		req.Header.Set("Accept-Encoding", "br, gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		wantEnc := ""
		if len(f.Encodings) > 0 {
			wantEnc = f.Encodings[0].Name
		}
		if rec.Code != 200 || rec.Header().Get("Content-Encoding") != wantEnc {
			t.Errorf("GET %s: %d, Content-Encoding %q, want 200 %q", f.Path, rec.Code, rec.Header().Get("Content-Encoding"), wantEnc)
			continue
		}
		body := rec.Body.Bytes()
		if wantEnc != "" {
			if body, err = precompress.Decode(wantEnc, body); err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
		}
		if !bytes.Equal(body, want) {
			t.Errorf("GET %s: body differs from the file (%d vs %d B)", f.Path, len(body), len(want))
		}
		if !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("GET %s: no Vary: Accept-Encoding", f.Path)
		}
	}
}

// TestResultTimings checks that a build reports where its time went: esbuild
// ran, and the stages add up to no more than the whole build.
func TestResultTimings(t *testing.T) {
	root := copyTree(t, "testdata/shells")
	res, err := Build(context.Background(), Options{Root: root, OutDir: filepath.Join(t.TempDir(), "dist"), NoCache: true, PrecompressHTML: true})
	if err != nil {
		t.Fatal(err)
	}
	tm := res.Timings
	if tm.Esbuild <= 0 || tm.Write <= 0 || tm.Compress <= 0 {
		t.Errorf("timings missing a stage that ran: %+v", tm)
	}
	sum := tm.Discover + tm.Esbuild + tm.Render + tm.Minify + tm.Hash + tm.Compress + tm.Write + tm.Record + tm.BridgeWait
	if sum > res.Duration {
		t.Errorf("stages add up to %v, more than the build's %v", sum, res.Duration)
	}
}

// TestCompressionProgress: a compression that runs past the progress
// delay (zero here: announced as it starts) is announced once through Options.Progress; a build
// that compresses nothing, or has no Progress, says nothing.
func TestCompressionProgress(t *testing.T) {
	root := writeProject(t, map[string]string{
		"widgets/w/widget.json": `{}`,
		"widgets/w/index.ts":    "document.body.append(" + strconv.Quote(strings.Repeat("progress ", 400)) + ");",
	})
	for _, tc := range []struct {
		name       string
		noCompress bool
		want       int
	}{
		{"compressing", false, 1},
		{"no compression", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var notes []string
			b, err := New(Options{Root: root, OutDir: filepath.Join(t.TempDir(), "dist"), PublicURL: "https://cdn.example.com", NoCache: true, NoCompress: tc.noCompress,
				Progress: func(n string) { mu.Lock(); notes = append(notes, n); mu.Unlock() }})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			b.progressDelay = 0
			if _, err := b.Build(context.Background()); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(notes) != tc.want {
				t.Fatalf("notes %q, want %d", notes, tc.want)
			}
			if tc.want > 0 && !strings.Contains(notes[0], "compressing") {
				t.Errorf("note %q does not say it is compressing", notes[0])
			}
		})
	}
}

package bundler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/internal/precompress"
)

// TestPersistentCompressionCache checks that compressed outputs are reused
// across output folders through the cache folder, that a damaged entry is
// never served, and that NoCache compresses afresh.
func TestPersistentCompressionCache(t *testing.T) {
	root := copyTree(t, "testdata/shells")
	cache := t.TempDir()
	build := func(out string, noCache bool) *Result {
		t.Helper()
		res, err := Build(context.Background(), Options{Root: root, OutDir: filepath.Join(t.TempDir(), out), CacheDir: cache, NoCache: noCache, PrecompressHTML: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := build("a", false)
	if first.Compressed == 0 {
		t.Fatalf("first build compressed nothing")
	}
	second := build("b", false)
	if second.Compressed != 0 || second.Reused == 0 {
		t.Errorf("fresh output folder with a warm cache: compressed %d, reused %d; want 0 compressed", second.Compressed, second.Reused)
	}
	if fresh := build("c", true); fresh.Compressed != first.Compressed {
		t.Errorf("NoCache build compressed %d encodings, want %d", fresh.Compressed, first.Compressed)
	}

	// Damage every brotli entry: the next build must not serve them.
	var damaged int
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".br") {
			damaged++
			return os.WriteFile(p, []byte("not brotli"), 0o644)
		}
		return nil
	})
	if damaged == 0 {
		t.Fatal("no brotli entries in the cache")
	}
	res := build("d", false)
	// The damaged entries of the build's own files (not the bridge
	// measurement's) are compressed again.
	if res.Compressed == 0 || res.Compressed > damaged {
		t.Errorf("after damaging %d entries the build recompressed %d", damaged, res.Compressed)
	}
	for _, f := range res.Manifest.Files {
		for _, e := range f.Encodings {
			data, err := os.ReadFile(filepath.Join(res.OutDir, e.Path))
			if err != nil {
				t.Fatal(err)
			}
			plain, err := precompress.Decode(e.Name, data)
			if err != nil || sha256Hex(plain) != f.SHA256 {
				t.Errorf("%s does not decode to %s (%v)", e.Path, f.Path, err)
			}
		}
	}
}

package distwrite

import (
	"os"
	"path/filepath"
	"testing"
)

// readTree returns every regular file under dir by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestWriteAllThenSwap writes a new dist/ from new bytes and files retained
// from the previous one, swaps it in (with and without a dist/ to replace,
// and by the two-rename fallback), and checks the result holds exactly the
// new files and no temporary or old folder is left.
func TestWriteAllThenSwap(t *testing.T) {
	for _, tc := range []struct {
		name     string
		previous bool
		swap     func(tmp, dir string) error
	}{
		{"no previous dist", false, SwapDir},
		{"exchange", true, SwapDir},
		{"two renames", true, swapByRename},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dist, prev := filepath.Join(root, "dist"), filepath.Join(root, "prev")
			if err := os.MkdirAll(filepath.Join(prev, "w"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(prev, "w", "kept.js"), []byte("kept"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.previous {
				if err := WriteAll(dist, []Job{{Rel: "stale.html", Data: []byte("stale")}}); err != nil {
					t.Fatal(err)
				}
			}
			tmp := filepath.Join(root, ".dist.tmp-1")
			jobs := []Job{{Rel: "w/index.html", Data: []byte("new")}, {Rel: "w/kept.js", From: prev}, {Rel: "top.json", Data: []byte("{}")}}
			if err := WriteAll(tmp, jobs); err != nil {
				t.Fatal(err)
			}
			if err := SyncDir(tmp); err != nil {
				t.Fatal(err)
			}
			if err := tc.swap(tmp, dist); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"w/index.html": "new", "w/kept.js": "kept", "top.json": "{}"}
			got := readTree(t, dist)
			if len(got) != len(want) {
				t.Errorf("dist holds %v, want %v", got, want)
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("dist/%s = %q, want %q", k, got[k], v)
				}
			}
			for _, gone := range []string{tmp, oldDirName(dist)} {
				if _, err := os.Lstat(gone); !os.IsNotExist(err) {
					t.Errorf("%s left behind (%v)", gone, err)
				}
			}
		})
	}
}

// TestRecoverInterrupted: a build killed between the two renames left dist/
// as .dist.old and a temporary folder; the next build restores the one and
// removes the other.
func TestRecoverInterrupted(t *testing.T) {
	root := t.TempDir()
	dist := filepath.Join(root, "dist")
	if err := WriteAll(oldDirName(dist), []Job{{Rel: "index.html", Data: []byte("old")}}); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(root, ".dist.tmp-7")
	if err := WriteAll(tmp, []Job{{Rel: "half.html", Data: []byte("half")}}); err != nil {
		t.Fatal(err)
	}
	RecoverInterrupted(dist)
	if got := readTree(t, dist); len(got) != 1 || got["index.html"] != "old" {
		t.Errorf("dist after recovery holds %v, want the old build", got)
	}
	if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary folder left behind (%v)", err)
	}
}

//go:build linux

package bundler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/internal/distwrite"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// TestLockLeavesNothing: a build leaves no .dist.lock beside dist/, and
// while one build holds the lock a second is refused.
func TestLockLeavesNothing(t *testing.T) {
	root := t.TempDir()
	w := filepath.Join(root, "widgets", "w")
	writeFiles(t, w, map[string]string{"index.ts": `document.body.append("w");`, "widget.json": `{}`})
	if _, err := Build(context.Background(), Options{Root: root, NoCache: true}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".lock") {
			t.Errorf("%s left in the project root", e.Name())
		}
	}

	dist := filepath.Join(root, "dist")
	unlock, err := distwrite.LockOut(dist, displaypath.WorkingDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := distwrite.LockOut(dist, displaypath.WorkingDir()); err == nil || !strings.Contains(err.Error(), "another widgetd build is writing") {
		t.Errorf("second lock: %v", err)
	}
	unlock()
	unlock2, err := distwrite.LockOut(dist, displaypath.WorkingDir())
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
}

package bundler

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleRewrites: the memo answers as the rewrites do, for a package's
// module and for the project's own (where only branded classes are
// rewritten), and follows a module whose text changed.
func TestModuleRewrites(t *testing.T) {
	pkg := filepath.Join("p", "node_modules", "data", "index.js")
	own := filepath.Join("p", "widgets", "w", "data.js")
	table := `let E = {}; const a = [E.A];`
	var r moduleRewrites
	for _, tc := range []struct {
		name, file, src string
		changed         bool
	}{
		{"package", pkg, table, true},
		{"package again", pkg, table, true},
		{"package changed", pkg, `const a = 1;`, false},
		{"project's own module", own, table, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := r.rewrite(tc.file, tc.src)
			want, wantChanged := textRewrites(tc.file, tc.src)
			if got != want || changed != wantChanged || changed != tc.changed {
				t.Errorf("rewrite = %q, %v; textRewrites = %q, %v; want changed %v", got, changed, want, wantChanged, tc.changed)
			}
			if changed && !strings.Contains(got, "/* @__PURE__ */") {
				t.Errorf("changed without a pure mark: %q", got)
			}
		})
	}
	if len(r.byFile) != 2 {
		t.Errorf("the memo holds %d files, want 2 (one entry per file)", len(r.byFile))
	}
}

package check

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// tsxWidget fetches from an undeclared origin (line 4; the URL is folded
// from parts, so only the source map finds the line) and compiles code at
// run time (line 5).
const tsxWidget = "type Opts = { path: string };\n" +
	"const opts: Opts = { path: \"/v1/items\" } as const;\n" +
	"document.body.textContent = \"ready\";\n" +
	"fetch(\"https://api.undeclared\" + \".example/v1\").catch(() => {});\n" +
	"const compiled = new Function(\"a\", \"return a * 2\");\n" +
	"document.body.dataset.n = String(compiled(2));\n"

// TestFindingsAtTSXLines: findings about code in a TSX widget name the TSX
// file, line and column, with the source line, for an inline and an
// external build.
func TestFindingsAtTSXLines(t *testing.T) {
	for _, publicURL := range []string{"", "https://cdn.example.com"} {
		t.Run("public="+publicURL, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "widgets", "w")
			testfiles.Write(t, dir, map[string]string{"widget.json": `{"domain": "https://w.example.com"}`, "index.tsx": tsxWidget})
			rep, err := Run(context.Background(), assemble(t, root, publicURL), Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]struct{ at, source string }{
				RuleCSPUndeclaredConnect: {"widgets/w/index.tsx:4:", `fetch("https://api.undeclared" + ".example/v1").catch(() => {});`},
				RuleJSEval:               {"widgets/w/index.tsx:5:", `const compiled = new Function("a", "return a * 2");`},
			}
			for rule, w := range want {
				var f *audit.Finding
				for i := range rep.Findings {
					if rep.Findings[i].Rule == rule {
						f = &rep.Findings[i]
					}
				}
				if f == nil {
					t.Fatalf("no %s finding in %v", rule, rep.Findings)
				}
				if !strings.Contains(filepath.ToSlash(f.File), w.at) || f.Offset != -1 {
					t.Errorf("%s at %s (offset %d); want …%s", rule, f.File, f.Offset, w.at)
				}
				if !strings.HasSuffix(f.String(), "\n    "+w.source) {
					t.Errorf("%s does not end with the source line %q:\n%s", rule, w.source, f.String())
				}
			}
		})
	}
}

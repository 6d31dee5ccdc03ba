package check

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/specialfile"
)

var sizeKiB = regexp.MustCompile(`[0-9]+(\.[0-9]+)? (KiB|B)\b`)

// TestLimitRulesGolden checks each project under testdata/limits from
// sources: "<rule>" must report that rule, "<rule>-ok" must not, and the
// report must match the golden file.
func TestLimitRulesGolden(t *testing.T) {
	base, err := filepath.Abs(filepath.Join("testdata", "limits"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, rule := range limitRules {
		for _, name := range []string{rule, rule + "-ok"} {
			t.Run(name, func(t *testing.T) {
				root := filepath.Join("testdata", "limits", name)
				if _, err := os.Stat(root); err != nil {
					t.Fatalf("rule %s has no testdata/limits case: %v", rule, err)
				}
				if name == RuleBuildNotRegularFile {
					// git keeps no FIFOs: make the one the case imports.
					fifo := filepath.Join(root, "widgets", "w", "data.txt")
					specialfile.FIFO(t, fifo)
					t.Cleanup(func() { os.Remove(fifo) })
				}
				var findings []audit.Finding
				in, err := FromSources(context.Background(), bundler.Options{Root: root, NoCompress: true, NoCache: true})
				if err != nil {
					var ok bool
					if findings, ok = LimitFindings(err); !ok {
						t.Fatalf("build failed for another reason: %v", err)
					}
				} else {
					rep, err := Run(context.Background(), in, Options{})
					if err != nil {
						t.Fatal(err)
					}
					findings = rep.Findings
				}
				var b strings.Builder
				found := false
				for _, f := range findings {
					found = found || f.Rule == rule
					line := strings.ReplaceAll(f.String(), base, "<limits>")
					b.WriteString(sizeKiB.ReplaceAllString(line, "N $2") + "\n")
				}
				if want := !strings.HasSuffix(name, "-ok"); found != want {
					t.Errorf("rule %s reported = %v, want %v:\n%s", rule, found, want, b.String())
				}
				if strings.Contains(b.String(), "runner secret") {
					t.Error("a finding shows the outside file's contents")
				}
				checkGolden(t, "limits-"+name, b.String())
				seen[rule] = true
			})
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range limitRules {
		if !bytes.Contains(doc, []byte("| `"+r+"` |")) {
			t.Errorf("docs/check.md has no table row for %s", r)
		}
	}
}

func TestLimitFindingsOnlyForLimits(t *testing.T) {
	if _, ok := LimitFindings(nil); ok {
		t.Error("nil error gave findings")
	}
	mixed := &diag.Error{Diagnostics: []diag.Diagnostic{
		{File: "widgets/w/index.ts", Line: 1, Column: 2, Message: "outside", Code: diag.CodeOutsideProject},
		{File: "widgets/w/index.ts", Line: 3, Column: 4, Message: `Expected ";"`},
	}}
	if _, ok := LimitFindings(mixed); ok {
		t.Error("a syntax error was turned into findings")
	}
	fs, ok := LimitFindings(&diag.Error{Diagnostics: mixed.Diagnostics[:1]})
	if !ok || len(fs) != 1 || fs[0].String() != "project: build-outside-project: error: widgets/w/index.ts:1:2: outside ("+limitFixes[RuleBuildOutsideProject]+")" {
		t.Errorf("findings %v", fs)
	}
}

package check

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// assemble builds the project at root in memory.
func assemble(t *testing.T, root string, publicURL string) *Input {
	t.Helper()
	in, err := FromSources(context.Background(), bundler.Options{Root: root, PublicURL: publicURL, SourceMaps: true})
	if err != nil {
		if d := diag.FromError(err); d != nil {
			t.Fatalf("assemble %s: %v", root, d)
		}
		t.Fatalf("assemble %s: %v", root, err)
	}
	return in
}

// cloneMeta deep-copies a _meta object through JSON, so a test can make the
// list and read copies differ (the bundler shares one object).
func cloneMeta(t *testing.T, m assets.ResourceMeta) assets.ResourceMeta {
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out assets.ResourceMeta
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// splitMeta gives every profile its own list and read objects.
func splitMeta(t *testing.T, in *Input) *assets.Widget {
	w := &in.Manifest.Widgets[0]
	for i := range w.Profiles {
		w.Profiles[i].ListMeta = cloneMeta(t, w.Profiles[i].ListMeta)
		w.Profiles[i].ReadMeta = cloneMeta(t, w.Profiles[i].ReadMeta)
	}
	return w
}

// mutations make the build-output defects that the bundler never produces
// itself, so the metadata and file rules can be seen firing.
var mutations = map[string]func(t *testing.T, in *Input){
	"meta-csp-missing": func(t *testing.T, in *Input) {
		w := splitMeta(t, in)
		w.Profiles[0].ListMeta.UI.CSP = nil
		w.Profiles[1].ReadMeta.WidgetCSP = nil
	},
	"meta-csp-mismatch": func(t *testing.T, in *Input) {
		w := splitMeta(t, in)
		w.Profiles[1].ReadMeta.WidgetCSP.ConnectDomains = []string{"https://other.example.com"}
	},
	"meta-csp-invalid": func(t *testing.T, in *Input) {
		w := splitMeta(t, in)
		w.Profiles[0].ReadMeta.UI.CSP.ConnectDomains = []string{"'unsafe-eval'"}
	},
	"meta-domain-mismatch": func(t *testing.T, in *Input) {
		w := splitMeta(t, in)
		w.Profiles[0].ReadMeta.WidgetDomain = ""
		w.Profiles[1].ListMeta.UI.Domain = "https://other.example.com"
	},
	"html-invalid": func(t *testing.T, in *Input) {
		w := in.Manifest.Widgets[0]
		doc := in.Files[w.HTML]
		doc = regexp.MustCompile(`(?i)<!doctype html>|<meta charset="?utf-8"?>`).ReplaceAll(doc, nil)
		in.Files[w.HTML] = append(doc, "<head></head>"...)
	},
	"html-inline-script-hazard": func(t *testing.T, in *Input) {
		// esbuild writes "<\!--"; undo that, as a bundler or a hand-written
		// inline script that does not escape would leave it.
		w := in.Manifest.Widgets[0]
		doc := bytes.Replace(in.Files[w.HTML], []byte(`<\!--`), []byte("<!--"), 1)
		if bytes.Equal(doc, in.Files[w.HTML]) {
			t.Fatal("the bundle no longer holds the escaped <!-- this case relies on")
		}
		in.Files[w.HTML] = doc
	},
	"html-inline-script-hazard--end-tag": func(t *testing.T, in *Input) {
		w := in.Manifest.Widgets[0]
		doc := bytes.Replace(in.Files[w.HTML], []byte(`<\/script><b>`), []byte("</script><b>"), 1)
		if bytes.Equal(doc, in.Files[w.HTML]) {
			t.Fatal(`the bundle no longer holds the escaped <\/script this case relies on`)
		}
		in.Files[w.HTML] = doc
	},
	"build-file-missing": func(t *testing.T, in *Input) {
		delete(in.Files, in.Manifest.Widgets[0].HTML)
	},
}

// caseOptions are per-case budgets.
var caseOptions = map[string]Options{
	"size-inline-budget":   {InlineBudget: 1000},
	"size-transfer-budget": {TransferBudget: 500},
}

var (
	hashedHTML = regexp.MustCompile(`\.[0-9a-f]{16}\.`)
	hashedFile = regexp.MustCompile(`-[A-Z0-9]{8}\.`)
	bigNumber  = regexp.MustCompile(`\b[0-9]{3,}\b`)
)

// render writes findings for a golden file: hashes and byte counts, which
// change whenever the bridge does, are masked, and each offset is shown as
// the text it points at. rename writes a path of the project as the case's
// (caseRoot).
func render(in *Input, fs []audit.Finding, rename func(string) string) string {
	var b strings.Builder
	for _, f := range fs {
		if f.File != "" && f.Offset >= 0 {
			data := in.Files[f.File]
			at := "<offset out of range>"
			if f.Offset <= len(data) {
				at = string(data[f.Offset:min(len(data), f.Offset+24)])
			}
			f.File += "@" + strconv.Quote(at)
		}
		f.Offset = -1
		line := rename(f.String())
		line = hashedHTML.ReplaceAllString(line, ".HASH.")
		line = hashedFile.ReplaceAllString(line, "-HASH.")
		line = bigNumber.ReplaceAllString(line, "N")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// checkGolden compares got with testdata/golden/<name>.txt (rewritten with
// -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name+".txt"), []byte(got), *update)
}

// TestRulesGolden runs every case under testdata/rules: "<rule-id>" must
// report that rule, "<rule-id>-ok" must not, and the whole report must match
// the golden file. A case may be a variant of another (caseRoot).
func TestRulesGolden(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "rules"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		// "<rule>", "<rule>-ok" and variants "<rule>--<what>".
		rule, ok := strings.CutSuffix(name, "-ok")
		rule, _, _ = strings.Cut(rule, "--")
		t.Run(name, func(t *testing.T) {
			root, rename := caseRoot(t, name)
			in := assemble(t, root, "")
			if m := mutations[name]; m != nil {
				m(t, in)
			}
			rep, err := Run(context.Background(), in, caseOptions[name])
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range rep.Findings {
				found = found || f.Rule == rule
			}
			if found == ok {
				t.Errorf("rule %s reported = %v, want %v; findings:\n%s", rule, found, !ok, render(in, rep.Findings, rename))
			}
			checkGolden(t, name, render(in, rep.Findings, rename))
		})
		if !ok {
			seen[rule] = true
		}
	}
	for _, r := range allRules {
		if !seen[r] {
			t.Errorf("rule %s has no testdata/rules case", r)
		}
	}
}

// allRules lists every build-level rule ID; each needs a golden case and a
// row in docs/check.md.
var allRules = []string{
	RuleCSPUndeclaredConnect, RuleCSPUndeclaredResource, RuleCSPUndeclaredFrame, RuleCSPUndeclaredBaseURI,
	RuleCSPBlockedDataURL, RuleCSPUnusedDomain, RuleCSPFrameDomains, RuleMetaCSPMissing, RuleMetaCSPMismatch,
	RuleMetaCSPInvalid, RuleMetaDomainMismatch, RuleDomainMissing, RuleDomainInvalid, RuleWidgetDescription,
	RuleJSEval, RuleSizeInline, RuleSizeTransfer, RuleInlineScriptHazard, RuleHTMLInvalid, RuleFileMissing,
	RuleMountMissing, RuleCSPBlockedWorker, RuleWorkerNotBundled,
}

// TestDocsListEveryRule keeps docs/check.md in step with the rule IDs.
func TestDocsListEveryRule(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	rules := append([]string{}, allRules...)
	rules = append(rules, audit.RuleToolInvocationTooLong, audit.RuleToolMetaInvalid, audit.RuleToolResourceUnknown,
		audit.RuleToolResourceMismatch, audit.RuleToolFileParamsSchema, audit.RuleToolAnnotationsMissing,
		audit.RuleToolOutputSchemaMissing, audit.RuleToolSecuritySchemes)
	rules = append(rules, RuleToolResourceNotInBuild, RuleServerResourceNotInBuild)
	for _, r := range rules {
		if !bytes.Contains(doc, []byte("| `"+r+"` |")) {
			t.Errorf("docs/check.md has no table row for %s", r)
		}
	}
}

// TestExampleWidgetsPass checks every example widget from sources, inline
// and external: no errors.
func TestExampleWidgetsPass(t *testing.T) {
	for _, pub := range []string{"", "https://cdn.example.com/widgets"} {
		in := assemble(t, filepath.Join("..", "widgets", ".."), pub)
		rep, err := Run(context.Background(), in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Widgets) < 3 {
			t.Fatalf("checked only %v", rep.Widgets)
		}
		for _, f := range rep.Findings {
			if f.Severity == audit.Error {
				t.Errorf("public URL %q: %s", pub, f)
			}
		}
	}
}

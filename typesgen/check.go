package typesgen

import (
	"context"
	"fmt"
	"os"
	"sort"
)

// Finding is one generated file that does not match what its source's
// tools generate now.
type Finding struct {
	Path    string
	Message string
}

// CheckFolder lists the tools again from every source the generated files
// in widgetsDir record (building and running a --from package in
// widgetsDir's Go module) and reports each file that is missing, differs,
// or that no tool names any more. No generated files: no findings.
func CheckFolder(ctx context.Context, widgetsDir string) ([]Finding, error) {
	existing, err := Existing(widgetsDir)
	if err != nil {
		return nil, err
	}
	sources := map[Source]bool{}
	for _, s := range existing {
		sources[s] = true
	}
	var findings []Finding
	for _, src := range sortedSources(sources) {
		plan, err := Regenerate(ctx, src, widgetsDir, widgetsDir)
		if err != nil {
			return nil, fmt.Errorf("checking the generated types: %w", err)
		}
		rerun := "run: widgetd types " + src.String()
		for _, p := range sortedKeys(plan.Write) {
			what := "is out of date: a tool's schema changed since it was generated"
			if _, err := os.Stat(p); err != nil {
				what = "is missing: a tool shows this widget now"
			}
			findings = append(findings, Finding{p, fmt.Sprintf("%s %s; %s", FileName, what, rerun)})
		}
		for _, p := range plan.Remove {
			findings = append(findings, Finding{p, fmt.Sprintf("no tool of %s shows this widget any more; %s (it removes the file)", src, rerun)})
		}
	}
	return findings, nil
}

// Regenerate lists src's tools (a --from package is built in dir) and plans
// their declaration files against widgetsDir.
func Regenerate(ctx context.Context, src Source, dir, widgetsDir string) (*Plan, error) {
	tools, err := List(ctx, src, dir)
	if err != nil {
		return nil, err
	}
	files, err := Generate(tools, src)
	if err != nil {
		return nil, err
	}
	return PlanFiles(widgetsDir, files, src)
}

func sortedSources(m map[Source]bool) []Source {
	out := make([]Source, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

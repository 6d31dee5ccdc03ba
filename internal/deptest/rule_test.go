package deptest

import (
	"slices"
	"strings"
	"testing"
)

// TestViolations: the rule TestInternalHoldsLeavesOnly applies, on made-up
// package lists, so that it is known to fail when it must.
func TestViolations(t *testing.T) {
	const (
		leaf      = leafRoot + "/leaf"
		feature   = leafRoot + "/feature"
		bundler   = module + "/bundler"
		nested    = module + "/bundler/internal/part"
		lookalike = "github.com/widgetd/widgetdx/bundler"
	)
	allowFeature := map[string]string{feature: "moving out"}
	tests := []struct {
		name    string
		pkgs    []listedPackage
		allowed map[string]string
		want    []string
	}{
		{"leaf imports std, outside modules and other leaves", []listedPackage{{ImportPath: leaf, Imports: []string{"os", "golang.org/x/sys/unix", leafRoot + "/other", lookalike}, TestImports: []string{leafRoot + "/syncbuf"}}}, nil, nil},
		{"upward import", []listedPackage{{ImportPath: feature, Imports: []string{"os", bundler}}}, nil, []string{feature + " imports " + bundler}},
		{"the module root is upward too", []listedPackage{{ImportPath: feature, Imports: []string{module}}}, nil, []string{feature + " imports " + module}},
		{"upward in the package's tests", []listedPackage{{ImportPath: leaf, TestImports: []string{bundler}}}, nil, []string{leaf + " imports " + bundler + " (in its tests)"}},
		{"upward in external tests", []listedPackage{{ImportPath: leaf, XTestImports: []string{nested}}}, nil, []string{leaf + " imports " + nested + " (in its tests)"}},
		{"same import in code and tests counts once", []listedPackage{{ImportPath: feature, Imports: []string{bundler}, TestImports: []string{bundler}, XTestImports: []string{bundler}}}, nil, []string{feature + " imports " + bundler}},
		{"internal/ itself is checked", []listedPackage{{ImportPath: leafRoot, TestImports: []string{bundler}}}, nil, []string{leafRoot + " imports " + bundler + " (in its tests)"}},
		{"packages outside internal/ import anything", []listedPackage{{ImportPath: bundler, Imports: []string{module + "/assets"}}, {ImportPath: nested, Imports: []string{bundler}}}, nil, nil},
		{"allowlisted upward import", []listedPackage{{ImportPath: feature, Imports: []string{bundler}}}, allowFeature, nil},
		{"allowlist covers only its package", []listedPackage{{ImportPath: feature, Imports: []string{bundler}}, {ImportPath: leaf, Imports: []string{bundler}}}, allowFeature, []string{leaf + " imports " + bundler}},
		{"stale allowlist entry", []listedPackage{{ImportPath: feature, Imports: []string{"os"}}}, allowFeature, []string{feature + " is in upwardAllowed"}},
		{"allowlisted package gone", nil, allowFeature, []string{feature + " is in upwardAllowed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := violations(tt.pkgs, tt.allowed)
			if len(got) != len(tt.want) {
				t.Fatalf("violations = %q, want %d starting %q", got, len(tt.want), tt.want)
			}
			for i, prefix := range tt.want {
				if !hasPrefixAndAdvice(got[i], prefix) {
					t.Errorf("violation %d = %q, want it to start with %q", i, got[i], prefix)
				}
			}
		})
	}
}

// hasPrefixAndAdvice reports whether v starts with prefix followed by ": "
// and says what to do.
func hasPrefixAndAdvice(v, prefix string) bool {
	rest, ok := strings.CutPrefix(v, prefix)
	return ok && strings.HasPrefix(rest, ": ") && slices.ContainsFunc([]string{"move the package", "remove the entry"}, func(s string) bool { return strings.Contains(rest, s) })
}

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCLI runs widgetd check over the example widgets and over small
// projects with problems, checking exit codes and output.
func TestCheckCLI(t *testing.T) {
	clean := writeProject(t, map[string]string{
		"widgets/ok/widget.json": `{"title": "OK", "domain": "https://ok.example.com", "widgetDescription": "d", "csp": {"connectDomains": ["https://api.example.com"]}}`,
		"widgets/ok/index.ts":    `fetch("https://api.example.com/data").then(r => r.json()).then(d => document.body.append(String(d)));`,
	})
	undeclared := writeProject(t, map[string]string{
		"widgets/leak/widget.json": `{"title": "Leak", "domain": "https://ok.example.com", "widgetDescription": "d"}`,
		"widgets/leak/index.ts":    `fetch("https://api.undeclared.example/data").then(r => r.json());`,
	})
	warnOnly := writeProject(t, map[string]string{
		"widgets/w/widget.json": `{"title": "W", "domain": "https://ok.example.com"}`,
		"widgets/w/index.ts":    `document.body.append("w");`,
	})
	badFixtures := writeProject(t, map[string]string{
		"widgets/a/widget.json":           `{"title": "A", "domain": "https://ok.example.com", "widgetDescription": "d"}`,
		"widgets/a/index.ts":              `document.body.append("a");`,
		"widgets/a/fixtures/default.json": "{\n  \"toolNme\": \"a\"\n}",
		"widgets/b/widget.json":           `{"title": "B", "domain": "https://ok.example.com", "widgetDescription": "d"}`,
		"widgets/b/index.ts":              `document.body.append("b");`,
		"widgets/b/fixtures/default.json": "{\"toolInput\": {\"x\": 1},\n}",
		"widgets/c/widget.json":           `{"title": "C", "domain": "https://ok.example.com", "widgetDescription": "d"}`,
		"widgets/c/index.ts":              `document.body.append("c");`,
		"widgets/c/fixtures/default.json": "\xEF\xBB\xBF{\"toolName\": \"c\"}",
	})
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"fixture did you mean", []string{"check", "--root", badFixtures}, exitError, `widgets/a/fixtures/default.json:2:3: error: unknown field "toolNme" in fixture; did you mean "toolName"?`},
		{"fixture trailing comma", []string{"check", "--root", badFixtures}, exitError, `widgets/b/fixtures/default.json:1:23: error: invalid JSON: trailing comma`},
		{"fixtures named", []string{"check", "--root", badFixtures}, exitError, "widgetd check: fixtures do not load in widgetd dev and widgetd test"},
		{"examples strict", []string{"check", "--root", "../..", "--strict"}, exitOK, "0 error(s), 0 warning(s)"},
		{"clean", []string{"check", "--root", clean}, exitOK, "0 error(s)"},
		{"undeclared fetch", []string{"check", "--root", undeclared}, exitError, "leak: csp-undeclared-connect: error"},
		{"warning passes", []string{"check", "--root", warnOnly}, exitOK, "widget-description-missing: warning"},
		{"warning fails strict", []string{"check", "--root", warnOnly, "--strict"}, exitError, "widget-description-missing"},
		{"usage", []string{"check", "--frob"}, exitUsage, ""},
		{"outside the project", []string{"check", "--root", "../../check/testdata/limits/build-outside-project"}, exitError, "w: build-outside-project: error: "},
		{"outside the project json", []string{"check", "--root", "../../check/testdata/limits/build-outside-project", "--json"}, exitError, `"rule": "build-outside-project"`},
		{"html budget strict", []string{"check", "--root", "../../check/testdata/limits/build-html-budget", "--strict"}, exitError, "w: build-html-budget: warning: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			if !strings.Contains(out+errs, tc.want) {
				t.Errorf("output lacks %q:\n%s%s", tc.want, out, errs)
			}
		})
	}
	// --json over a built dist/.
	dist := filepath.Join(t.TempDir(), "dist")
	if code, _, errs := runCLI(t, "build", "--root", undeclared, "--out", dist); code != exitOK {
		t.Fatalf("build: %s", errs)
	}
	code, out, _ := runCLI(t, "check", "--dist", dist, "--json")
	if code != exitError {
		t.Fatalf("check --dist --json: exit %d, want %d", code, exitError)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil || !strings.Contains(out, "csp-undeclared-connect") {
		t.Fatalf("--json output is not JSON naming the rule (%v):\n%s", err, out)
	}
}

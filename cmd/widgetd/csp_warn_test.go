package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildWarnsUndeclaredOrigins runs the real CLI over a widget that
// fetches from, and sets an image to, origins its csp does not declare:
// `widgetd build` writes dist/ (exit 0) and warns at each source
// file:line:col with the line and a caret; `widgetd check` reports the
// same as errors and exits non-zero. Declared and wildcard-matched loads
// stay silent.
func TestBuildWarnsUndeclaredOrigins(t *testing.T) {
	root := writeProject(t, map[string]string{
		"widgets/w/widget.json": `{"title": "W", "domain": "https://w.example.com", "widgetDescription": "d",
  "csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://*.img.example.com"]}}`,
		"widgets/w/index.ts": "fetch(\"https://api.example.com/ok\");\n" +
			"const data = fetch(\"https://evil.example.net/x\");\n" +
			"const img = new Image();\n" +
			"img.src = \"https://pics.example.net/a.png\";\n" +
			"const ok = new Image();\n" +
			"ok.src = \"https://a.img.example.com/a.png\";\n" +
			"document.body.append(img, ok, String(data));\n",
	})
	src := filepath.Join(root, "widgets", "w", "index.ts")
	dist := filepath.Join(t.TempDir(), "dist")
	code, _, errs := runCLI(t, "build", "--root", root, "--out", dist)
	if code != exitOK {
		t.Fatalf("build exit %d, want %d (warnings do not fail a build)\n%s", code, exitOK, errs)
	}
	for _, want := range []string{
		src + ":2:14: warning: widget \"w\": fetch() \"https://evil.example.net/x\" reaches https://evil.example.net, which connectDomains does not declare",
		"add \"https://evil.example.net\" to csp.connectDomains",
		"(widgetd check reports this as csp-undeclared-connect)",
		"\n    const data = fetch(\"https://evil.example.net/x\");\n                 ^\n",
		src + ":4:1: warning: widget \"w\": image .src = \"https://pics.example.net/a.png\" reaches https://pics.example.net, which resourceDomains does not declare",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("build output lacks %q:\n%s", want, errs)
		}
	}
	if n := strings.Count(errs, ": warning: "); n != 2 {
		t.Errorf("%d warnings, want 2 (declared and wildcard-matched loads are fine):\n%s", n, errs)
	}
	if _, err := os.Stat(filepath.Join(dist, "manifest.json")); err != nil {
		t.Errorf("build with warnings did not write dist/: %v", err)
	}

	// An up-to-date build repeats the warnings.
	if _, _, errs := runCLI(t, "build", "--root", root, "--out", dist); !strings.Contains(errs, src+":2:14: warning: ") {
		t.Errorf("up-to-date build lost the warning:\n%s", errs)
	}

	// --json carries them with their rule.
	code, out, _ := runCLI(t, "build", "--root", root, "--out", dist, "--json")
	var res struct {
		Result struct {
			Warnings []struct {
				File         string
				Line, Column int
				Code         string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK {
		t.Fatalf("build --json: exit %d, %v\n%s", code, err, out)
	}
	if w := res.Result.Warnings; len(w) != 2 || w[0].Code != "csp-undeclared-connect" || w[0].Line != 2 || w[0].Column != 14 {
		t.Errorf("--json warnings = %+v", w)
	}

	code, out, errs = runCLI(t, "check", "--root", root)
	if code != exitError {
		t.Fatalf("check exit %d, want %d\n%s%s", code, exitError, out, errs)
	}
	for _, want := range []string{
		"w: csp-undeclared-connect: error: " + src + ":2:14: fetch()",
		"w: csp-undeclared-resource: error: " + src + ":4:1: image .src =",
	} {
		if !strings.Contains(out+errs, want) {
			t.Errorf("check output lacks %q:\n%s%s", want, out, errs)
		}
	}
}

package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestCLI: widgetd test's flags, outputs and exit codes on the examples.
func TestTestCLI(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "report.xml")
	code, out, errs := runCLI(t, "test", "--root", "../..", "--widget", "hello", "--host", "mcp", "--json", "--junit", junit)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var rep struct {
		Cases []struct {
			Widget, Fixture, Host string
			Passed                bool
			Baseline              string
		}
		Passed, Failed int
		Pinned         string
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if !strings.Contains(rep.Pinned, "DejaVu Sans Mono") || !strings.Contains(rep.Pinned, "device scale factor 1") {
		t.Errorf("report does not say what is pinned: %q", rep.Pinned)
	}
	if rep.Passed != 2 || rep.Failed != 0 || rep.Cases[0].Host != "mcp-apps" || rep.Cases[0].Widget != "hello" ||
		!strings.HasSuffix(rep.Cases[0].Baseline, filepath.Join("hello", "fixtures", "screenshots", rep.Cases[0].Fixture+".mcp.png")) {
		t.Errorf("report %+v", rep)
	}
	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests  int `xml:"tests,attr"`
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || doc.Tests != 2 || doc.Suites[0].Name != "hello" || doc.Suites[0].Cases[0].Name != "default@mcp-apps" {
		t.Errorf("--junit %v:\n%s", err, data)
	}

	// Claude and ChatGPT legacy, which the default run leaves out: the
	// example renders under both (no baselines are committed for them).
	code, out, errs = runCLI(t, "test", "--root", "../..", "--widget", "hello", "--host", "claude,chatgpt-legacy", "--no-screenshots", "--json")
	rep.Cases = nil
	if err := json.Unmarshal([]byte(out), &rep); code != exitOK || err != nil {
		t.Fatalf("--host claude,chatgpt-legacy: exit %d, %v\n%s%s", code, err, out, errs)
	}
	hosts := map[string]int{}
	for _, c := range rep.Cases {
		if c.Passed {
			hosts[c.Host]++
		}
	}
	if hosts["claude"] != 2 || hosts["chatgpt-legacy"] != 2 || len(rep.Cases) != 4 {
		t.Errorf("--host claude,chatgpt-legacy: passed per host %v of %+v", hosts, rep.Cases)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"test", "--root", "../..", "--chrome", "/nonexistent/chromium"}, exitNoBrowser, "no Chromium found"},
		{[]string{"test", "--root", "../..", "--host", "gemini"}, exitUsage, `--host "gemini": hosts are mcp-apps, chatgpt, chatgpt-legacy, claude (mcp is mcp-apps)`},
		{[]string{"test", "--root", "../..", "--widget", "nope", "--chrome", "/usr/bin/chromium"}, exitError, "no widget named nope"},
		{[]string{"test", "--root", writeProject(t, map[string]string{"widgets/w/widget.json": `{"titel": "x"}`, "widgets/w/index.ts": ``})}, exitError, `unknown field "titel"`},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("widgetd %v: exit %d (want %d)\n%s%s", tc.args, code, tc.code, out, errs)
		}
	}
}

// TestUninstalledTemplate: a react template project whose npm install never
// ran fails its build with exactly one message naming the install to run;
// with a vanilla widget added, widgetd test still renders that widget (in
// real Chromium) and fails the react one as a build case.
func TestUninstalledTemplate(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	if code, _, errs := runCLI(t, "init", root, "--template", "react"); code != exitOK {
		t.Fatalf("init: %s", errs)
	}
	t.Chdir(root)
	want := "widgets/package.json: error: packages in widgets/package.json are not installed (react, react-dom); run `npm install` in widgets/"
	code, _, errs := runCLI(t, "build")
	if code != exitError || strings.Count(errs, ": error: ") != 1 || !strings.Contains(errs, want) {
		t.Fatalf("build: exit %d (want %d), want exactly one error %q:\n%s", code, exitError, want, errs)
	}
	if code, _, errs := runCLI(t, "new", "plain", "--template", "vanilla"); code != exitOK {
		t.Fatalf("new: %s", errs)
	}
	code, out, errs := runCLI(t, "test", "--host", "mcp", "--no-screenshots", "--chrome", "/usr/bin/chromium")
	if code != exitError {
		t.Errorf("test: exit %d, want %d (the react widget does not build)", code, exitError)
	}
	for _, w := range []string{"ok   plain/default@mcp-apps", "FAIL hello/build@all", want, "1 failed"} {
		if !strings.Contains(out, w) {
			t.Errorf("test output lacks %q", w)
		}
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", out, errs)
	}
}

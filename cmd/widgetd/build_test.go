package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	testfiles.Write(t, root, files)
	return root
}

func TestCLIExitCodes(t *testing.T) {
	good := writeProject(t, map[string]string{
		"widgets/hi/widget.json": `{"title": "Hi"}`,
		"widgets/hi/index.ts":    `document.body.append("hi " + "x".repeat(300));`,
	})
	bad := writeProject(t, map[string]string{
		"widgets/hi/widget.json": `{"title": "Hi", "colour": "red"}`,
		"widgets/hi/index.ts":    `x`,
	})
	outside := writeProject(t, map[string]string{
		"widgets/hi/widget.json": `{"title": "Hi"}`,
		"widgets/hi/index.ts":    "import t from \"" + strings.Repeat("../", 30) + "etc/passwd\" with { type: \"text\" };\ndocument.body.append(t);",
	})
	budget := writeProject(t, map[string]string{
		"widgetd.json":           `{"htmlBudget": 2000}`,
		"widgets/hi/widget.json": `{"title": "Hi"}`,
		"widgets/hi/index.ts":    `document.body.append("hi");`,
	})
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		wantOut    string
		wantStderr string
	}{
		{"no args", nil, exitUsage, "", "Usage: widgetd <command>"},
		{"unknown command", []string{"frobnicate"}, exitUsage, "", `unknown command "frobnicate"`},
		{"help", []string{"help"}, exitOK, "Commands:", ""},
		{"help build", []string{"help", "build"}, exitOK, "Usage: widgetd build", ""},
		{"version", []string{"version"}, exitOK, "widgetd ", ""},
		{"bad flag", []string{"build", "--nope"}, exitUsage, "", "flag provided but not defined: --nope"},
		{"extra arg", []string{"build", "--root", good, "extra"}, exitUsage, "", `unexpected argument "extra"`},
		{"config error", []string{"build", "--root", bad}, exitError, "", `widget.json:1:17: error: unknown field "colour"`},
		{"missing widgets", []string{"build", "--root", good, "--widgets", "nope"}, exitError, "", "widgets folder not found; run `widgetd init`"},
		{"bad public url", []string{"build", "--root", good, "--public-url", "cdn.example.com"}, exitError, "", "must be an absolute http(s) URL"},
		{"ok", []string{"build", "--root", good}, exitOK, "ui://widget/hi.", ""},
		{"outside the project", []string{"build", "--root", outside}, exitError, "", `index.ts:1:15: error: this import resolves to /etc/passwd, outside the project`},
		{"html budget warns", []string{"build", "--root", budget}, exitOK, "ui://widget/hi.", `index.ts: warning: widget "hi": HTML is`},
		{"html budget strict", []string{"build", "--root", budget, "--strict"}, exitError, "", `index.ts: error: widget "hi": HTML is`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			if !strings.Contains(out, tc.wantOut) {
				t.Errorf("stdout lacks %q:\n%s", tc.wantOut, out)
			}
			if !strings.Contains(errs, tc.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantStderr, errs)
			}
		})
	}
}

func TestCLIBuildSummaryAndJSON(t *testing.T) {
	root := writeProject(t, map[string]string{
		"widgets/hi/widget.json": `{"title": "Hi"}`,
		"widgets/hi/index.ts":    `document.body.append("hello " + "x".repeat(400));`,
	})
	cache := t.TempDir() // explicit: the test must not depend on $HOME
	code, out, errs := runCLI(t, "build", "--root", root, "--cache-dir", cache)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"hi  ui://widget/hi.", ".html", "kB", "│ br ", "│ gzip ", "1 widget(s) built in"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = runCLI(t, "build", "--root", root, "--json", "--cache-dir", cache)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		OK     bool `json:"ok"`
		Result struct {
			Widgets []struct {
				Name string `json:"name"`
				URI  string `json:"uri"`
			} `json:"widgets"`
			Reused   int  `json:"reused"`
			UpToDate bool `json:"upToDate"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	if !got.OK || len(got.Result.Widgets) != 1 || !strings.HasPrefix(got.Result.Widgets[0].URI, "ui://widget/hi.") {
		t.Errorf("unexpected JSON result: %+v", got)
	}
	if !got.Result.UpToDate {
		t.Errorf("second build of unchanged sources was not up to date")
	}
	code, out, _ = runCLI(t, "build", "--root", writeProject(t, map[string]string{"widgets/x/widget.json": `{`}), "--json")
	if code != exitError || !strings.Contains(out, `"ok": false`) || !strings.Contains(out, `"diagnostics"`) {
		t.Errorf("failed --json build: exit %d, output %s", code, out)
	}
}

// TestCLIBuildWarnsWhatHostsBlock: an inline build with a font prints the
// warning on stderr and lists it in --json, also when the build is skipped
// as up to date.
func TestCLIBuildWarnsWhatHostsBlock(t *testing.T) {
	root := writeProject(t, map[string]string{
		"widgets/f/widget.json": `{}`,
		"widgets/f/index.ts":    `import "./f.css"; document.body.append("x");`,
		"widgets/f/f.css":       `@font-face { font-family: F; src: url(./f.woff2); } body { font-family: F; }`,
		"widgets/f/f.woff2":     "not-really-a-font",
	})
	cache := t.TempDir()
	for i := 0; i < 2; i++ {
		code, out, errs := runCLI(t, "build", "--root", root, "--json", "--cache-dir", cache)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(errs, "f.woff2: warning: ") || !strings.Contains(errs, "--public-url") {
			t.Errorf("build %d: stderr lacks the font warning:\n%s", i+1, errs)
		}
		var got struct {
			Result struct {
				UpToDate bool `json:"upToDate"`
				Warnings []struct {
					File    string `json:"file"`
					Message string `json:"message"`
					Warning bool   `json:"warning"`
				} `json:"warnings"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Result.UpToDate != (i == 1) || len(got.Result.Warnings) != 1 || !got.Result.Warnings[0].Warning ||
			!strings.HasSuffix(got.Result.Warnings[0].File, "f.woff2") {
			t.Errorf("build %d: --json result %+v", i+1, got.Result)
		}
	}
}

// TestCLINotesInJSON: a diagnostic's located notes reach --json as
// "notes" and the terminal as a second located line.
func TestCLINotesInJSON(t *testing.T) {
	root := writeProject(t, map[string]string{
		"widgets/w/widget.json": `{}`,
		"widgets/w/index.tsx":   "export const a = <div>\n  <h1>x</h2>\n</div>;\n",
	})
	code, out, errs := runCLI(t, "build", "--root", root, "--json")
	if code != exitError {
		t.Fatalf("exit %d, want %d", code, exitError)
	}
	var v struct {
		Diagnostics []struct {
			Message string
			Notes   []struct {
				File    string
				Line    int
				Column  int
				Message string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	found := false
	for _, d := range v.Diagnostics {
		if strings.HasPrefix(d.Message, `Unexpected closing "h2"`) && len(d.Notes) == 1 &&
			d.Notes[0].Line == 2 && d.Notes[0].Column == 4 && d.Notes[0].Message == `The opening "h1" tag is here` &&
			strings.HasSuffix(d.Notes[0].File, filepath.Join("widgets", "w", "index.tsx")) {
			found = true
		}
	}
	if !found {
		t.Errorf("--json lacks the mismatched tag with its located note:\n%s", out)
	}
	if !strings.Contains(errs, `index.tsx:2:4: note: The opening "h1" tag is here`) {
		t.Errorf("stderr lacks the note's located line:\n%s", errs)
	}
}

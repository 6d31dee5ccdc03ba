package widgettest

import (
	"context"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestExamplesPass runs widgetd test's engine on the repository's example
// widgets against their committed fixtures and screenshot baselines, as CI
// does: every case must pass, under both hosts.
func TestExamplesPass(t *testing.T) {
	rep, err := RunReport(context.Background(), Options{Root: ".."})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cases {
		if !c.Passed {
			t.Errorf("%s: %v", c.Name(), c.Failures)
		}
		if c.BaselineWritten {
			t.Errorf("%s: no committed baseline (%s); run widgetd test --update and commit it", c.Name(), c.Baseline)
		}
	}
	hosts := map[string]int{}
	for _, c := range rep.Cases {
		hosts[c.Host]++
	}
	if len(rep.Cases) < 6 || hosts["mcp-apps"] != hosts["chatgpt"] {
		t.Errorf("cases %d, per host %v", len(rep.Cases), hosts)
	}
	t.Logf("examples: %d cases passed in %.1fs", rep.Passed, rep.DurationMs/1000)
}

// project writes a widgets folder of dependency-free widgets: files maps
// "name/file" to contents.
func project(t *testing.T, files map[string]string) (root, widgets string) {
	t.Helper()
	root = t.TempDir()
	widgets = filepath.Join(root, "widgets")
	testfiles.Write(t, widgets, files)
	return root, widgets
}

func caseByName(t *testing.T, rep *Report, name string) Case {
	t.Helper()
	for _, c := range rep.Cases {
		if c.Name() == name {
			return c
		}
	}
	t.Fatalf("no case %s in %+v", name, rep.Cases)
	return Case{}
}

func wantFailure(t *testing.T, c Case, substr string) {
	t.Helper()
	if c.Passed {
		t.Errorf("%s passed, want a failure containing %q", c.Name(), substr)
		return
	}
	for _, f := range c.Failures {
		if strings.Contains(f, substr) {
			return
		}
	}
	t.Errorf("%s failures %q, want one containing %q", c.Name(), c.Failures, substr)
}

// TestFailures: each way a widget can fail is caught, under both hosts,
// while a good widget in the same run passes.
func TestFailures(t *testing.T) {
	// The good widget replaces only its own result: on chatgpt the result
	// arrives twice (window.openai's toolOutput at load, then ui/*), and the
	// lookup answer may land in between.
	root, widgets := project(t, map[string]string{
		"good/widget.json": `{}`,
		"good/index.ts": `import { widget } from "widgetd";
widget.onToolResult((r) => { document.getElementById("ok")?.remove(); document.body.insertAdjacentHTML("afterbegin", "<p id=ok>" + (r.structuredContent as any).word + "</p>"); });
widget.callTool("lookup", { id: 7, verbose: true }).then((r) => { document.body.insertAdjacentHTML("beforeend", "<i>" + (r.structuredContent as any).answer + "</i>"); });`,
		"good/fixtures/default.json": `{"toolResult":{"structuredContent":{"word":"apple"}},
  "callTool":{"lookup":{"structuredContent":{"answer":"forty-two"}}},
  "expect":{"text":["apple","forty-two"],"elements":["p#ok"],"calls":[{"tool":"lookup","arguments":{"id":7}}]}}`,
		"unmet/widget.json": `{}`,
		"unmet/index.ts": `import { widget } from "widgetd";
widget.onToolResult(() => {});
document.body.textContent = "pear";`,
		"unmet/fixtures/default.json": `{"expect":{"text":["apple"],"elements":["table"],"calls":[{"tool":"lookup"}]}}`,
		"throws/widget.json":          `{}`,
		// TSX, so failures name the source line through the source map.
		"throws/index.tsx": `const delay: number = 10;
setTimeout(() => {
  throw new Error("kaboom in the widget");
}, delay);`,
		"csp/widget.json": `{}`,
		"csp/index.tsx": `import { widget } from "widgetd";
widget.onToolResult(() => {});
const url: string = "https://api.not-declared.example/data";
fetch(url).catch(() => {});`,
		// A component entry of no framework widgetd can tell: nothing mounts
		// it, and the body stays empty after the tool result.
		"blank/widget.json": `{}`,
		"blank/index.ts": `import { widget } from "widgetd";
widget.onToolResult(() => {});
export default function Card() { return "<p>never mounted</p>"; }`,
		"silent/widget.json": `{}`,
		"silent/index.ts":    `document.body.textContent = "never talks to the host";`,
		// A stray CSP <meta> that blocks every script, the bridge's too: the
		// View never initializes.
		"blocked/widget.json": `{"entry": "index.html"}`,
		"blocked/index.html":  `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="script-src 'none'"></head><body><p>static</p><script type="module" src="./main.ts"></script></body></html>`,
		"blocked/main.ts":     `document.body.textContent = "never runs";`,
	})
	// The default case timeout, as users get it: a shorter one failed the
	// passing cases on a loaded machine (the blocked case waits it out).
	rep, err := RunReport(context.Background(), Options{Root: root, WidgetsDir: widgets, CaseTimeout: DefaultCaseTimeout})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range DefaultHosts() {
		if c := caseByName(t, rep, "good/default@"+h); !c.Passed {
			t.Errorf("%s: %v", c.Name(), c.Failures)
		}
		u := caseByName(t, rep, "unmet/default@"+h)
		wantFailure(t, u, `expected text "apple"; the widget shows "pear"`)
		wantFailure(t, u, `expected an element matching "table"`)
		wantFailure(t, u, `expected a call of tool "lookup"`)
		wantFailure(t, caseByName(t, rep, "throws/none@"+h), "kaboom in the widget at ")
		wantFailure(t, caseByName(t, rep, "throws/none@"+h), filepath.Join("widgets", "throws", "index.tsx")+`:3:`)
		wantFailure(t, caseByName(t, rep, "throws/none@"+h), "\n      throw new Error(\"kaboom in the widget\");")
		wantFailure(t, caseByName(t, rep, "csp/none@"+h), `CSP violation: connect-src blocked "https://api.not-declared.example/data" at `)
		wantFailure(t, caseByName(t, rep, "csp/none@"+h), filepath.Join("widgets", "csp", "index.tsx")+`:4:`)
		wantFailure(t, caseByName(t, rep, "csp/none@"+h), "\n      fetch(url).catch(() => {});")
		blank := caseByName(t, rep, "blank/none@"+h)
		wantFailure(t, blank, "the widget's document body is empty after the tool result arrived: ")
		wantFailure(t, blank, filepath.Join("blank", "index.ts")+" renders no element")
		if len(blank.Failures) != 1 {
			t.Errorf("%s: failures %q, want only the empty body", blank.Name(), blank.Failures)
		}
	}
	// A widget that never calls the API still initializes: the bridge starts
	// the session at load. One whose scripts never run fails under the MCP
	// Apps host; ChatGPT has no handshake (window.openai is there from the start).
	for _, h := range DefaultHosts() {
		if c := caseByName(t, rep, "silent/none@"+h); !c.Passed {
			t.Errorf("%s: %v", c.Name(), c.Failures)
		}
	}
	wantFailure(t, caseByName(t, rep, "blocked/none@mcp-apps"), "missing handshake: the widget never completed ui/initialize")
	wantFailure(t, caseByName(t, rep, "blocked/none@chatgpt"), `CSP violation: script-src-elem blocked "inline"`)
	for _, c := range rep.Cases {
		if !c.Passed && c.BaselineWritten {
			t.Errorf("%s failed but wrote a baseline", c.Name())
		}
	}
	if rep.Failed != 10 || rep.Passed != 4 {
		t.Errorf("passed %d failed %d, want 4 and 10", rep.Passed, rep.Failed)
	}

	data, err := rep.JUnit()
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 14 || doc.Failures != 10 || len(doc.Suites) != 7 {
		t.Errorf("JUnit: tests %d failures %d suites %d", doc.Tests, doc.Failures, len(doc.Suites))
	}
}

// TestScreenshots: the first run writes baselines, the second matches them,
// a changed widget fails against them and leaves the actual screenshot
// beside the baseline, and --update accepts it.
func TestScreenshots(t *testing.T) {
	root, widgets := project(t, map[string]string{
		"box/widget.json":           `{}`,
		"box/index.ts":              `import { widget } from "widgetd"; widget.onToolResult(() => {}); document.body.innerHTML = '<div style="width:200px;height:80px;background:#0a7"></div>';`,
		"box/fixtures/default.json": `{"expect":{"elements":["div"]}}`,
		// An endless animation and a transition must not make screenshots differ.
		"spin/widget.json": `{}`,
		"spin/index.ts": `import { widget } from "widgetd"; widget.onToolResult(() => {});
const s = document.createElement("style");
s.textContent = "@keyframes r{to{transform:rotate(360deg)}} .s{width:60px;height:60px;background:linear-gradient(90deg,#000,#fff);animation:r .7s linear infinite} .t{width:40px;height:10px;background:#06c;transition:width 3s} .t.w{width:300px}";
document.head.append(s);
document.body.innerHTML = '<div class="s"></div><div class="t"></div>';
requestAnimationFrame(() => requestAnimationFrame(() => document.querySelector(".t")!.classList.add("w")));`,
	})
	opts := Options{Root: root, WidgetsDir: widgets, Hosts: []string{"mcp"}}
	run := func() Case {
		t.Helper()
		rep, err := RunReport(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if c := caseByName(t, rep, "spin/none@mcp-apps"); !c.Passed {
			t.Errorf("animated widget: %v", c.Failures)
		}
		return caseByName(t, rep, "box/default@mcp-apps")
	}
	baseline := filepath.Join(widgets, "box", "fixtures", "screenshots", "default.mcp.png")
	if c := run(); !c.Passed || !c.BaselineWritten {
		t.Fatalf("first run: %+v", c)
	}
	if _, err := os.Stat(baseline); err != nil {
		t.Fatal(err)
	}
	if c := run(); !c.Passed || c.BaselineWritten || c.DiffRatio != 0 {
		t.Fatalf("second run: %+v", c)
	}
	src := filepath.Join(widgets, "box", "index.ts")
	if err := os.WriteFile(src, []byte(`import { widget } from "widgetd"; widget.onToolResult(() => {}); document.body.innerHTML = '<div style="width:200px;height:80px;background:#a07"></div>';`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := run()
	wantFailure(t, c, "screenshot differs from")
	if c.DiffRatio < 0.01 {
		t.Errorf("diff ratio %v for a recoloured box", c.DiffRatio)
	}
	actual := filepath.Join(widgets, "box", "fixtures", "screenshots", "default.mcp.actual.png")
	if _, err := os.Stat(actual); err != nil {
		t.Errorf("actual screenshot not written: %v", err)
	}
	// A baseline whose fixture is gone is reported, and --update removes it.
	stale := filepath.Join(widgets, "box", "fixtures", "screenshots", "renamed.mcp.png")
	if err := os.WriteFile(stale, []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	all := opts
	all.Hosts = nil
	rep, err := RunReport(context.Background(), all)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Stale) != 1 || !strings.HasSuffix(rep.Stale[0], "renamed.mcp.png") {
		t.Errorf("stale baselines %v", rep.Stale)
	}
	opts.Update = true
	if c := run(); !c.Passed || !c.BaselineWritten {
		t.Fatalf("update run: %+v", c)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("a run limited to one host pruned a baseline: %v", err)
	}
	all.Update = true
	if _, err := RunReport(context.Background(), all); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("--update left the stale baseline: %v", err)
	}
	if _, err := os.Stat(actual); !os.IsNotExist(err) {
		t.Errorf("actual screenshot left after --update: %v", err)
	}
}

func TestDiffRatio(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 10, 10))
	b := image.NewRGBA(image.Rect(0, 0, 10, 10))
	for i := range a.Pix {
		a.Pix[i], b.Pix[i] = 255, 255
	}
	b.Set(1, 1, color.RGBA{250, 255, 255, 255}) // within tolerance
	b.Set(2, 2, color.RGBA{0, 0, 0, 255})
	if r, err := diffRatio(a, b, DefaultTolerance); err != nil || r != 0.01 {
		t.Errorf("diffRatio = %v, %v; want 0.01", r, err)
	}
	if _, err := diffRatio(a, image.NewRGBA(image.Rect(0, 0, 10, 11)), 0); err == nil || !strings.Contains(err.Error(), "size 10x11, baseline 10x10") {
		t.Errorf("size mismatch: %v", err)
	}
	var buf strings.Builder
	_ = png.Encode(&nopWriter{&buf}, a)
	if _, err := comparePNG([]byte("not a png"), []byte(buf.String()), 0); err == nil {
		t.Error("accepted a broken baseline")
	}
}

type nopWriter struct{ b *strings.Builder }

func (w *nopWriter) Write(p []byte) (int, error) { return w.b.Write(p) }

func TestFindChrome(t *testing.T) {
	if _, err := FindChrome("/nonexistent/chrome"); err == nil || !strings.Contains(err.Error(), "no Chromium found") {
		t.Errorf("explicit missing browser: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CHROME_PATH", "")
	if _, err := FindChrome(""); err == nil || !strings.Contains(err.Error(), "--chrome") {
		t.Errorf("no browser on PATH: %v", err)
	}
	t.Setenv("CHROME_PATH", "/usr/bin/chromium")
	if p, err := FindChrome(""); err != nil || p != "/usr/bin/chromium" {
		t.Errorf("CHROME_PATH: %q, %v", p, err)
	}
}

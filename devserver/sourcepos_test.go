package devserver

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// boomTSX is a TSX widget that makes a CSP violation (a fetch from an
// undeclared origin, line 7) and throws an uncaught error (line 9).
const boomTSX = `type Label = { text: string };

function paint(label: Label): void {
  document.body.textContent = label.text;
}
paint({ text: "boom widget ready" });
fetch("https://api.example.com/boom").catch(() => {});
setTimeout(() => {
  throw new Error("boom from the TSX source");
}, 0);
`

// TestSourcePositionsInDev: in real Chromium through the dev server, a CSP
// violation and an uncaught error in a TSX widget are shown at their TSX
// lines with the source line, in the terminal and in the preview's log,
// under both hosts.
func TestSourcePositionsInDev(t *testing.T) {
	d := startDev(t, nil)
	testfiles.Write(t, filepath.Join(d.widgets, "boom"), map[string]string{"index.tsx": boomTSX, "widget.json": `{"title": "Boom"}`})
	for ev := d.nextBuild(t, 30*time.Second); ; ev = d.nextBuild(t, 30*time.Second) {
		if !ev.OK {
			t.Fatalf("build failed: %+v", ev.Diagnostics)
		}
		if hasWidget(d, "boom") {
			break
		}
	}
	for _, host := range []string{"mcp", "chatgpt"} {
		t.Run(host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/boom?host="+host)
			p.waitFrameText("boom widget ready", 30*time.Second)
			want := map[string]string{
				"CSP violation": `widgets/boom/index.tsx:7:`,
				"uncaught":      `widgets/boom/index.tsx:9:`,
			}
			texts := map[string]string{
				"CSP violation": `fetch("https://api.example.com/boom").catch(() => {});`,
				"uncaught":      `throw new Error("boom from the TSX source");`,
			}
			p.waitFor("both reports at their TSX lines", 20*time.Second, func() string {
				var log []struct {
					Kind string
					Data struct{ Source *SourcePos }
				}
				if err := p.eval(`widgetdDev.log.filter((e) => e.dir === "err")`, &log); err != nil {
					return err.Error()
				}
				for kind, loc := range want {
					found := false
					for _, e := range log {
						if e.Kind == kind && e.Data.Source != nil && strings.Contains(filepath.ToSlash(e.Data.Source.String()), loc) &&
							strings.TrimSpace(e.Data.Source.Text) == texts[kind] {
							found = true
						}
					}
					if !found {
						return fmt.Sprintf("no %s entry at %s in %+v", kind, loc, log)
					}
				}
				return ""
			})
		})
	}
	term := filepath.ToSlash(d.log.String())
	for _, want := range []string{
		"CSP violation in widget boom (at ",
		"widgets/boom/index.tsx:7:",
		"uncaught error in widget boom: Uncaught Error: boom from the TSX source at ",
		"widgets/boom/index.tsx:9:",
		"\n    throw new Error(\"boom from the TSX source\");",
		"\n    fetch(\"https://api.example.com/boom\").catch(() => {});",
	} {
		if !strings.Contains(term, want) {
			t.Errorf("terminal lacks %q:\n%s", want, term)
		}
	}
}

// hasWidget reports whether the dev server's current build has the widget.
func hasWidget(d *devServer, name string) bool {
	d.mu.RLock()
	out := d.out
	d.mu.RUnlock()
	if out == nil {
		return false
	}
	for _, w := range out.Manifest.Widgets {
		if w.Name == name {
			return true
		}
	}
	return false
}

// TestErrorReportUntracedAndEscaped: an error report whose place is not in
// the widget's script keeps the reported position, and control characters
// in it reach the terminal only as escapes.
func TestErrorReportUntracedAndEscaped(t *testing.T) {
	d := startDev(t, nil)
	preview := strings.TrimSuffix(d.PreviewURL(), "/")
	hdr := map[string]string{"Content-Type": "application/json", "Origin": preview}
	body := `{"widget":"hello","message":"boom\u001b[2J","file":"http://elsewhere.example/x.js","line":1,"column":5}`
	code, _, resp := do(t, "POST", preview+"/_widgetd/error-report", "", hdr, strings.NewReader(body))
	if code != 200 || strings.Contains(resp, `"source"`) {
		t.Fatalf("error-report: %d %s; want 200 without a source", code, resp)
	}
	term := d.log.String()
	want := `uncaught error in widget hello: boom\x1b[2J at http://elsewhere.example/x.js:1:5`
	if !strings.Contains(term, want) || strings.Contains(term, "\x1b") {
		t.Errorf("terminal lacks %q or holds a raw escape:\n%q", want, term)
	}
	if code, _, _ := do(t, "POST", preview+"/_widgetd/error-report", "", hdr, strings.NewReader(`{"widget":`)); code != 400 {
		t.Errorf("malformed report: %d, want 400", code)
	}
}

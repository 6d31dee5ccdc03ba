package widgettest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
)

// fontPage is a page of text in every family a widget commonly names, and
// one web font of its own (@font-face from the page's origin).
const fontPage = `<!doctype html><html><head><meta charset="utf-8"><style>
@font-face { font-family: "Widget Face"; src: url("/face.ttf") format("truetype"); }
p { font-size: 20px; margin: 2px }
</style></head><body>
<p id="default">Default 0123 Hamburgefonstiv</p>
<p id="sans" style="font-family: sans-serif">Sans 0123 Hamburgefonstiv</p>
<p id="sans-bold" style="font-family: sans-serif; font-weight: bold">Sans bold Hamburgefonstiv</p>
<p id="serif" style="font-family: serif">Serif 0123 Hamburgefonstiv</p>
<p id="serif-bold" style="font-family: serif; font-weight: bold">Serif bold Hamburgefonstiv</p>
<p id="mono" style="font-family: monospace">Mono 12:34:56 Hamburgefonstiv</p>
<p id="mono-bold" style="font-family: monospace; font-weight: bold">Mono bold 12:34:56</p>
<p id="system-ui" style="font-family: system-ui">System UI Hamburgefonstiv</p>
<p id="apple-stack" style="font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif">Apple stack</p>
<p id="arial" style="font-family: Arial">Arial Hamburgefonstiv</p>
<p id="helvetica" style="font-family: Helvetica">Helvetica Hamburgefonstiv</p>
<p id="times" style="font-family: 'Times New Roman'">Times Hamburgefonstiv</p>
<p id="courier" style="font-family: 'Courier New'">Courier Hamburgefonstiv</p>
<p id="mono-stack" style="font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace">Mono stack 12:34</p>
<p id="cursive" style="font-family: cursive">Cursive Hamburgefonstiv</p>
<p id="fantasy" style="font-family: fantasy">Fantasy Hamburgefonstiv</p>
<p id="unknown" style="font-family: 'No Such Font Anywhere'">Unknown Hamburgefonstiv</p>
<p id="web-font" style="font-family: 'Widget Face', monospace">Web font Hamburgefonstiv</p>
</body></html>`

// TestPinnedFonts renders text in every generic family and in the common
// system font names in Chromium launched the way widgetd test launches it,
// and asks Chromium (CSS.getPlatformFontsForNode) which font it drew each
// with: always one of the embedded fonts, whatever the machine has installed
// (on a machine with Liberation or Noto fonts, Arial, Times New Roman or
// monospace resolve to those when fonts leak in). A widget's own web font
// still loads: its text is drawn with the downloaded font.
func TestPinnedFonts(t *testing.T) {
	face, err := os.ReadFile("../internal/fontpin/fonts/DejaVuSerif-Bold.ttf")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/face.ttf" {
			w.Header().Set("Content-Type", "font/ttf")
			_, _ = w.Write(face)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(fontPage))
	}))
	defer srv.Close()
	b, ctx := testBrowser(t)
	tab, cancelTab := chromedp.NewContext(b.ctx)
	defer cancelTab()
	stop := context.AfterFunc(ctx, cancelTab)
	defer stop()
	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	loaded, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.fonts.ready.then(() => [...document.fonts].map(f => f.status).join())`, chromedp.EvalAwaitPromise))
	if err != nil || loaded != "loaded" {
		t.Fatalf("web font status %q, %v; want loaded", loaded, err)
	}
	if _, err := chromedp.Call(tab, dom.Enable, dom.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tab, css.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}

	tests := []struct{ id, want string }{
		{"default", "DejaVuSerif"}, // Chromium's standard font is Times New Roman
		{"sans", "DejaVuSans"},
		{"sans-bold", "DejaVuSans-Bold"},
		{"serif", "DejaVuSerif"},
		{"serif-bold", "DejaVuSerif-Bold"},
		{"mono", "DejaVuSansMono"},
		{"mono-bold", "DejaVuSansMono-Bold"},
		{"system-ui", "DejaVuSans"},
		{"apple-stack", "DejaVuSans"},
		{"arial", "DejaVuSans"},
		{"helvetica", "DejaVuSans"},
		{"times", "DejaVuSerif"},
		{"courier", "DejaVuSansMono"},
		{"mono-stack", "DejaVuSansMono"},
		{"cursive", "DejaVuSans"},
		{"fantasy", "DejaVuSans"},
		{"unknown", "DejaVuSerif"}, // falls back to the standard font
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			fonts := platformFonts(t, tab, tt.id)
			if len(fonts) != 1 || fonts[0].PostScriptName != tt.want || fonts[0].IsCustomFont {
				t.Errorf("#%s drawn with %s, want only the embedded %s", tt.id, describeFonts(fonts), tt.want)
			}
		})
	}
	t.Run("web-font", func(t *testing.T) {
		fonts := platformFonts(t, tab, "web-font")
		if len(fonts) != 1 || !fonts[0].IsCustomFont || fonts[0].PostScriptName != "DejaVuSerif-Bold" {
			t.Errorf("#web-font drawn with %s, want only the downloaded web font (DejaVuSerif-Bold, custom)", describeFonts(fonts))
		}
	})
}

// platformFonts asks Chromium which fonts drew the text of the element with
// the given id.
func platformFonts(t *testing.T, tab context.Context, id string) []*css.PlatformFontUsage {
	t.Helper()
	doc, err := chromedp.Call(tab, dom.GetDocument, dom.GetDocumentParams{})
	if err != nil {
		t.Fatal(err)
	}
	node, err := chromedp.Call(tab, dom.QuerySelector, dom.QuerySelectorParams{NodeID: doc.Root.NodeID, Selector: "#" + id})
	if err != nil || node.NodeID == 0 {
		t.Fatalf("#%s: %v", id, err)
	}
	res, err := chromedp.Call(tab, css.GetPlatformFontsForNode, css.GetPlatformFontsForNodeParams{NodeID: node.NodeID})
	if err != nil {
		t.Fatalf("#%s: %v", id, err)
	}
	return res.Fonts
}

func describeFonts(fonts []*css.PlatformFontUsage) string {
	var out []string
	for _, f := range fonts {
		s := f.FamilyName + " (" + f.PostScriptName + ")"
		if f.IsCustomFont {
			s += " web font"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "no font"
	}
	return strings.Join(out, ", ")
}

// TestWidgetWebFont: a widget's own web font, declared with @font-face in
// its CSS from an origin its csp declares (as hosts allow; a font file of
// the widget itself is inlined as a data: URL, which the spec CSP blocks and
// the build warns about), still loads under widgetd test's pinned fonts.
func TestWidgetWebFont(t *testing.T) {
	face, err := os.ReadFile("../internal/fontpin/fonts/DejaVuSerif-Bold.ttf")
	if err != nil {
		t.Fatal(err)
	}
	fontHost := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "font/ttf")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		_, _ = w.Write(face)
	}))
	defer fontHost.Close()
	root, widgets := project(t, map[string]string{
		"remote/widget.json": `{"csp": {"resourceDomains": ["` + fontHost.URL + `"]}}`,
		"remote/index.ts": `import { widget } from "widgetd";
import "./style.css";
widget.onToolResult(() => {});
document.body.innerHTML = '<p id="t" style="font: 20px \'Widget Face\', monospace">Widget Face 12:34</p>';
document.fonts.load("20px 'Widget Face'").then((faces) => {
  document.getElementById("t")!.dataset.font = faces.length > 0 && faces.every((f) => f.status === "loaded") ? "loaded" : "missing";
});`,
		"remote/style.css":             `@font-face { font-family: "Widget Face"; src: url("` + fontHost.URL + `/face.ttf") format("truetype"); }`,
		"remote/fixtures/default.json": `{"expect":{"elements":["p[data-font=loaded]"]}}`,
	})
	rep, err := RunReport(context.Background(), Options{Root: root, WidgetsDir: widgets, Hosts: []string{"mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	if c := caseByName(t, rep, "remote/default@mcp-apps"); !c.Passed {
		t.Errorf("%s: %v", c.Name(), c.Failures)
	}
}

// TestPinFontsCacheFolder: the pinned fonts go to widgetd's cache folder,
// and to the temporary folder when the cache folder cannot be written (a
// read-only home), instead of failing the run.
func TestPinFontsCacheFolder(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	if got := fontsConfOf(t); !strings.HasPrefix(got, filepath.Join(cache, "widgetd", "fonts-")) {
		t.Errorf("FONTCONFIG_FILE=%s, want it under %s", got, cache)
	}
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", blocked)
	if got := fontsConfOf(t); !strings.HasPrefix(got, filepath.Join(tmp, "widgetd", "fonts-")) {
		t.Errorf("with an unwritable cache folder FONTCONFIG_FILE=%s, want it under %s", got, tmp)
	}
}

// fontsConfOf runs pinFonts and returns the fonts.conf it wrote.
func fontsConfOf(t *testing.T) string {
	t.Helper()
	conf, err := pinFonts()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(conf); err != nil {
		t.Fatal(err)
	}
	return conf
}

// testBrowser launches the Chromium widgetd test renders with (pinned
// fonts and all), closed when the test ends; its context ends after a
// minute.
func testBrowser(t *testing.T) (*browser, context.Context) {
	t.Helper()
	chrome, err := FindChrome("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	b, err := launch(ctx, chrome)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.close)
	return b, ctx
}

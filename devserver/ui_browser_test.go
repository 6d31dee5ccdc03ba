package devserver

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/widgetd/widgetd/internal/browsertest"
	"github.com/widgetd/widgetd/internal/fontpin"
	"github.com/widgetd/widgetd/internal/pngdiff"
)

// update rewrites this package's golden files: the preview UI screenshot
// baselines in testdata/ui and hostapp/src/gen/wire.ts (review the diff:
// it is what users see).
var update = flag.Bool("update", false, "rewrite the golden files: testdata/ui screenshots, hostapp/src/gen/wire.ts")

// uiControl is one control of the preview UI a user must be able to reach:
// its CSS selector and what to open first (a tab, or the widget drawer).
type uiControl struct {
	sel  string
	tab  string // inspector tab id, "" for none
	side bool   // in the sidebar (a drawer on narrow screens)
}

// primaryControls are the preview's controls, in every tab and the sidebar.
var primaryControls = []uiControl{
	{sel: "#host"}, {sel: "#theme"}, {sel: "#device"}, {sel: "#no-csp"}, {sel: "#fixture"}, {sel: "#reload"},
	{sel: "#mode-inline"}, {sel: "#mode-pip"}, {sel: "#mode-fullscreen"},
	{sel: "#tool-name", tab: "tool"}, {sel: "#tool-input", tab: "tool"}, {sel: "#tool-output", tab: "tool"},
	{sel: "#tool-content", tab: "tool"}, {sel: "#tool-meta", tab: "tool"}, {sel: "#apply", tab: "tool"}, {sel: "#call-response", tab: "tool"},
	{sel: "#display-mode", tab: "context"}, {sel: "#max-height", tab: "context"}, {sel: "#locale", tab: "context"},
	{sel: "#time-zone", tab: "context"}, {sel: "#platform", tab: "context"}, {sel: "#touch", tab: "context"},
	{sel: "#hover", tab: "context"}, {sel: "#inset-top", tab: "context"}, {sel: "#inset-left", tab: "context"},
	{sel: "#log-search", tab: "log"}, {sel: "#clear-log", tab: "log"}, {sel: "#log-filter-err", tab: "log"},
	{sel: "#panel-issues", tab: "issues"}, {sel: "#mcp-status", tab: "server"}, {sel: "#resource-meta", tab: "resource"},
	{sel: ".widget-link", side: true},
}

// reachJS scrolls the element into view and says "" when a click at its
// centre lands on it (or its label), else why not.
const reachJS = `((sel) => { const el = document.querySelector(sel); if (!el) return "missing";
  el.scrollIntoView({block: "center", inline: "center"}); const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return "no size " + r.width + "x" + r.height;
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return "centre off screen at " + x + "," + y;
  const hit = document.elementFromPoint(x, y);
  const ok = hit && (hit === el || el.contains(hit) || [...(el.labels || [])].some((l) => l.contains(hit)));
  return ok ? "" : "covered by " + (hit ? hit.outerHTML.slice(0, 120) : "nothing"); })`

// overflowJS is "" when the page is no wider than the window.
const overflowJS = `(() => { const w = document.documentElement.scrollWidth; return w <= innerWidth ? "" : "page " + w + " px wide in a " + innerWidth + " px window"; })()`

// TestPreviewUIResponsive opens the preview at 360, 768, 1280 and 2560 px
// in real Chromium: the page never scrolls sideways (with every inspector
// tab open in turn), every control can be scrolled to and clicked (the
// sidebar through its drawer where it is one), fullscreen and pip are
// entered by their buttons and left by the exit button and by Escape, and
// the dark theme darkens the whole page, not only the widget; at 1280 px the
// log filters by direction and opens an entry's JSON, and the server tab
// says there is no server; the index page fits each width too.
func TestPreviewUIResponsive(t *testing.T) {
	d := startDev(t, nil)
	for _, width := range []int64{360, 768, 1280, 2560} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			p := openPage(t, "about:blank")
			if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(width, 900)); err != nil {
				t.Fatal(err)
			}
			p.navigate(d.PreviewURL() + "preview/hello")
			p.waitFrameText("Hello, Ada!", 30*time.Second)
			p.checkReach(primaryControls)
			p.checkMenusShowChoice()
			p.checkModeButtons()
			p.checkPageTheme("light")
			if width == 1280 {
				p.checkLogPanel()
				p.checkNoServer()
			}
			p.selectValue("theme", "dark")
			p.waitFor("the dark page", 10*time.Second, func() string { return p.pageThemeProblem("dark") })

			// The index page: the widget cards fit too, their fixture links reachable.
			p.navigate(d.PreviewURL())
			p.waitFor("the widget cards", 20*time.Second, func() string {
				var why string
				if err := p.eval(reachJS+`(".cards .fixture-link")`, &why); err != nil {
					return err.Error()
				}
				return why
			})
			var over string
			if err := p.eval(overflowJS, &over); err != nil || over != "" {
				t.Errorf("index page: %s (%v)", over, err)
			}
		})
	}
}

// checkMenusShowChoice checks that every menu on the page is wide enough
// for the text of its choice ("Desktop 1280×800", not "Desktop 1280×8"),
// measured in the menu's own font.
func (p *page) checkMenusShowChoice() {
	p.t.Helper()
	var cut []string
	err := p.eval(`(() => {
		const measure = document.createElement("canvas").getContext("2d"), cut = [];
		for (const menu of document.querySelectorAll("select")) {
			if (!menu.offsetWidth || !menu.selectedOptions[0]) continue;
			const style = getComputedStyle(menu);
			measure.font = style.font;
			const need = measure.measureText(menu.selectedOptions[0].text).width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
			if (menu.clientWidth + 0.5 < need) cut.push(menu.id + ": " + menu.clientWidth + " px for " + Math.ceil(need) + " px of " + JSON.stringify(menu.selectedOptions[0].text));
		}
		return cut;
	})()`, &cut)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, c := range cut {
		p.t.Errorf("menu cuts its choice: %s", c)
	}
}

// checkLogPanel filters the message log by direction and opens an entry's JSON.
func (p *page) checkLogPanel() {
	p.t.Helper()
	p.click("#tab-log")
	p.click("#log-filter-out")
	p.waitFor("only host → widget rows", 5*time.Second, func() string {
		var dirs []string
		_ = p.eval(`[...document.querySelectorAll("#log > li")].map(li => li.className)`, &dirs)
		if len(dirs) == 0 {
			return "no rows"
		}
		for _, d := range dirs {
			if !strings.Contains(d, "out") {
				return "row " + d + " shown under the host → widget filter"
			}
		}
		return ""
	})
	p.click("#log > li:first-child summary")
	p.waitFor("the entry's JSON shown", 5*time.Second, func() string {
		var text string
		_ = p.eval(`(() => { const pre = document.querySelector("#log > li:first-child .log-json"); return pre && pre.offsetHeight > 0 ? pre.textContent : "" })()`, &text)
		if !strings.Contains(text, `"jsonrpc": "2.0"`) {
			return fmt.Sprintf("JSON shown %q", text)
		}
		return ""
	})
	p.click("#log-filter-all")
	p.click("#tab-tool")
}

// checkNoServer: without --mcp the server tab says how to connect one.
func (p *page) checkNoServer() {
	p.t.Helper()
	var text string
	if err := p.eval(`document.getElementById("mcp-status").textContent`, &text); err != nil || text != "no server connected (start with --mcp URL)" {
		p.t.Errorf("server tab without --mcp: %q (%v)", text, err)
	}
}

// navigate loads url in the page's tab.
func (p *page) navigate(url string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		p.t.Fatalf("navigate %s: %v", url, err)
	}
}

// do evaluates a statement for its effect.
func (p *page) do(js string) {
	p.t.Helper()
	var ignored any
	if err := p.eval(`(() => { `+js+`; return true })()`, &ignored); err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
}

// click clicks the element matching sel as a user does.
func (p *page) click(sel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("click %s: %v", sel, err)
	}
}

// selectValue picks value in the select with id, as a user does (a change event).
func (p *page) selectValue(id, value string) {
	p.t.Helper()
	p.do(fmt.Sprintf(`const s = document.getElementById(%q); s.value = %q; s.dispatchEvent(new Event("change"))`, id, value))
}

// checkReach opens each control's tab (or the drawer) and checks that the
// control is reachable and the page still has no horizontal overflow.
func (p *page) checkReach(controls []uiControl) {
	p.t.Helper()
	for _, c := range controls {
		if c.tab != "" {
			p.click("#tab-" + c.tab)
		}
		var drawer bool
		if c.side {
			_ = p.eval(`getComputedStyle(document.getElementById("toggle-sidebar")).display !== "none"`, &drawer)
			if drawer {
				p.click("#toggle-sidebar")
				time.Sleep(300 * time.Millisecond) // the drawer slides in
			}
		}
		p.waitFor(c.sel+" reachable", 5*time.Second, func() string {
			var why string
			if err := p.eval(reachJS+"("+browsertest.JS(c.sel)+")", &why); err != nil {
				return err.Error()
			}
			return why
		})
		var over string
		if err := p.eval(overflowJS, &over); err != nil || over != "" {
			p.t.Errorf("with %s shown: %s (%v)", c.sel, over, err)
		}
		if drawer {
			p.key(kb.Escape)
			p.waitFor("the drawer closed", 5*time.Second, func() string {
				var right float64
				_ = p.eval(`document.getElementById("sidebar").getBoundingClientRect().right`, &right)
				if right > 0 {
					return fmt.Sprintf("sidebar still reaches x=%v", right)
				}
				return ""
			})
		}
	}
	p.click("#tab-tool")
}

// key sends one key press to the page.
func (p *page) key(k string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
		p.t.Fatal(err)
	}
}

// checkModeButtons enters fullscreen and pip by their buttons and leaves by
// the exit button and by Escape; the exit button must be on top each time.
func (p *page) checkModeButtons() {
	p.t.Helper()
	for _, c := range []struct{ mode, leave string }{{"fullscreen", "escape"}, {"pip", "button"}, {"fullscreen", "button"}, {"pip", "escape"}} {
		p.do(`document.getElementById("mode-` + c.mode + `").scrollIntoView({block: "center"})`)
		p.click("#mode-" + c.mode)
		p.waitFor("the stage in "+c.mode, 10*time.Second, func() string { return p.stageState("mode-"+c.mode, true) })
		if c.leave == "button" {
			p.click("#exit-mode")
		} else {
			p.key(kb.Escape)
		}
		p.waitFor("the stage back inline after "+c.mode+" by "+c.leave, 10*time.Second, func() string { return p.stageState("mode-inline", false) })
	}
}

// pageThemeProblem is "" when the page's own surfaces (not only the widget)
// are dark or light as theme says, else which one is not.
func (p *page) pageThemeProblem(theme string) string {
	var lum map[string]float64
	err := p.eval(`(() => { const out = {};
	  for (const sel of ["body", ".topbar", ".main", ".inspector", ".panel", ".device-screen"]) {
	    const el = document.querySelector(sel); if (!el) { out[sel] = -1; continue; }
	    const m = getComputedStyle(el).backgroundColor.match(/[\d.]+/g).map(Number);
	    out[sel] = (0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]) / 255; }
	  return out; })()`, &lum)
	if err != nil {
		return err.Error()
	}
	for sel, l := range lum {
		if (theme == "dark" && (l < 0 || l > 0.2)) || (theme == "light" && l < 0.8) {
			return fmt.Sprintf("%s background luminance %.2f in the %s theme (all: %v)", sel, l, theme, lum)
		}
	}
	return ""
}

func (p *page) checkPageTheme(theme string) {
	p.t.Helper()
	if why := p.pageThemeProblem(theme); why != "" {
		p.t.Error(why)
	}
}

// uiDevice is a screenshot viewport with the device preset it selects.
type uiDevice struct {
	id            string
	width, height int64
}

// TestPreviewUIScreenshots takes the preview of the hello widget under each
// host × theme × device in a Chromium whose fonts are pinned (fontpin: the
// embedded DejaVu fonts only, as widgetd test renders) and compares each
// with its baseline in testdata/ui (go test -run TestPreviewUIScreenshots
// -update rewrites them), and ChatGPT's fullscreen and pip once per device.
// The status line, whose build time varies, is masked.
func TestPreviewUIScreenshots(t *testing.T) {
	conf, err := fontpin.Install(filepath.Join(os.TempDir(), "widgetd"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := browsertest.LaunchWith(context.Background(), chromedp.Env("FONTCONFIG_FILE="+conf),
		chromedp.Flag("hide-scrollbars", true), chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("font-render-hinting", "none"), chromedp.Flag("disable-lcd-text", true),
		chromedp.Flag("force-device-scale-factor", "1"), chromedp.Flag("lang", "en-US"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	d := startDev(t, nil)
	tab := b.NewPage(t)
	p := &page{t: t, ctx: tab.Ctx}
	for _, dev := range []uiDevice{{"desktop", 1280, 860}, {"mobile", 390, 844}} {
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(dev.width, dev.height)); err != nil {
			t.Fatal(err)
		}
		for _, host := range PreviewHosts() {
			for _, theme := range []string{"light", "dark"} {
				name := fmt.Sprintf("%s-%s-%s", host, theme, dev.id)
				t.Run(name, func(t *testing.T) {
					p.t = t
					p.navigate(fmt.Sprintf("%spreview/hello?host=%s&theme=%s&device=%s", d.PreviewURL(), host, theme, dev.id))
					p.waitFrameText("Hello, Ada!", 30*time.Second)
					if HostAnswersUI(host) {
						p.waitFor("the ui/* session", 20*time.Second, func() string {
							var up bool
							_ = p.eval(`widgetdDev.initialized`, &up)
							return map[bool]string{true: "", false: "not initialized"}[up]
						})
					}
					p.waitFrameStill()
					p.do(`document.getElementById("status").lastChild.textContent = "build ok"`)
					p.compareScreenshot(filepath.Join("testdata", "ui", name+".png"))
					if host != HostChatGPT || theme != "light" {
						return
					}
					// How fullscreen and pip look, once per device.
					for _, mode := range []string{"fullscreen", "pip"} {
						p.click("#mode-" + mode)
						p.waitFor("the stage in "+mode, 10*time.Second, func() string { return p.stageState("mode-"+mode, true) })
						p.waitFrameStill()
						p.compareScreenshot(filepath.Join("testdata", "ui", name+"-"+mode+".png"))
						p.key(kb.Escape)
						p.waitFor("the stage inline", 10*time.Second, func() string { return p.stageState("mode-inline", false) })
					}
				})
			}
		}
	}
}

// compareScreenshot captures the viewport until two captures agree and
// compares it with the baseline (or writes it with -update).
func (p *page) compareScreenshot(baseline string) {
	p.t.Helper()
	var shot, prev []byte
	for i := 0; i < 10; i++ {
		ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
		var err error
		shot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
		cancel()
		if err != nil {
			p.t.Fatal(err)
		}
		if prev != nil && string(prev) == string(shot) {
			break
		}
		prev = shot
		time.Sleep(150 * time.Millisecond)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(baseline), 0o755); err != nil {
			p.t.Fatal(err)
		}
		if err := os.WriteFile(baseline, shot, 0o644); err != nil {
			p.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(baseline)
	if err != nil {
		p.t.Fatalf("%v (write the baselines with go test ./devserver -run TestPreviewUIScreenshots -update)", err)
	}
	ratio, err := pngdiff.Compare(want, shot, 16)
	if err == nil && ratio <= 0.002 {
		return
	}
	actual := filepath.Join(os.TempDir(), "widgetd-ui-"+strings.ReplaceAll(filepath.Base(baseline), string(filepath.Separator), "_"))
	_ = os.WriteFile(actual, shot, 0o644)
	p.t.Errorf("screenshot differs from %s: %.3f%% of pixels (%v); this run's is %s (accept with -update)", baseline, ratio*100, err, actual)
}

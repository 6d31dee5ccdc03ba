package devserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestFaviconNoNotFound loads the index and a preview page in real
// Chromium and records every HTTP response of the tab (page, scripts,
// widget frame, icon): none may be a 4xx/5xx, the icon the pages link must
// be fetched with 200, and neither the browser's log nor the dev server's
// terminal may mention a 404. /favicon.ico (what a browser asks for on a
// page that names no icon) answers 200 too.
func TestFaviconNoNotFound(t *testing.T) {
	d := startDev(t, nil)
	for _, path := range []string{"favicon.ico", "_widgetd/favicon.svg"} {
		res, err := http.Get(d.PreviewURL() + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(body), "<svg") {
			t.Errorf("GET /%s: %d %q %.40q, want 200 image/svg+xml", path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	for _, c := range []struct{ path, frameText string }{{"", ""}, {"preview/hello", "Hello, Ada!"}} {
		t.Run("/"+c.path, func(t *testing.T) {
			p := shared.Page(t)
			var mu sync.Mutex
			status := map[string]int64{}
			if err := chromedp.Listen(p.Ctx, func(ev any) {
				if r, ok := ev.(*network.EventResponseReceived); ok {
					mu.Lock()
					status[r.Response.URL] = r.Response.Status
					mu.Unlock()
				}
			}); err != nil {
				t.Fatal(err)
			}
			p.Navigate(d.PreviewURL() + c.path)
			pg := &page{t: t, ctx: p.Ctx}
			if c.frameText != "" {
				pg.waitFrameText(c.frameText, 30*time.Second)
			}
			icon := p.Str(`document.querySelector('link[rel=icon]')?.href ?? ""`)
			pg.waitFor("the page's icon to be fetched", 20*time.Second, func() string {
				mu.Lock()
				defer mu.Unlock()
				if status[icon] != http.StatusOK {
					return fmt.Sprintf("icon %q: status %d; responses %v", icon, status[icon], status)
				}
				return ""
			})
			time.Sleep(300 * time.Millisecond) // let late requests arrive
			mu.Lock()
			for u, s := range status {
				if s >= 400 {
					t.Errorf("%s answered %d", u, s)
				}
			}
			mu.Unlock()
			for _, line := range p.Logged() {
				if mentionsNotFound(line) {
					t.Errorf("browser log: %s", line)
				}
			}
			if mentionsNotFound(d.log.String()) {
				t.Errorf("dev server terminal mentions a 404:\n%s", d.log)
			}
		})
	}
}

// urlPattern matches a URL or a bare host:port, whose port may well contain
// the digits 404 (a random port such as 40417) without any 404 answered.
var urlPattern = regexp.MustCompile(`https?://\S+|\b[\w.-]+:\d+\b`)

// notFoundPattern matches a 404 status or the words Chromium and Go's
// net/http print with it.
var notFoundPattern = regexp.MustCompile(`(?i)\b404\b|not found`)

// mentionsNotFound reports whether text mentions a 404 outside any URL.
func mentionsNotFound(text string) bool {
	return notFoundPattern.MatchString(urlPattern.ReplaceAllString(text, ""))
}

// TestFullscreenExit puts the widget in fullscreen and in picture-in-picture
// under both hosts in real Chromium and leaves by the button over the widget,
// by Escape on the page and by Escape with focus inside the widget: the
// stage returns to inline, the mode menu follows, and the widget is told
// (host-context-changed, or openai:set_globals).
func TestFullscreenExit(t *testing.T) {
	d := startDev(t, nil)
	for _, host := range []string{"mcp", "chatgpt"} {
		p := openPage(t, d.PreviewURL()+"preview/hello?host="+host)
		p.waitFrameText("Hello, Ada!", 30*time.Second)
		for _, c := range []struct{ mode, leave string }{{"fullscreen", "button"}, {"fullscreen", "escape"}, {"fullscreen", "escape-in-widget"}, {"pip", "button"}, {"pip", "escape"}, {"pip", "escape-in-widget"}} {
			t.Run(host+"/"+c.mode+"/"+c.leave, func(t *testing.T) {
				p.t = t
				p.setMode(c.mode)
				p.waitFor("the stage in "+c.mode, 10*time.Second, func() string { return p.stageState("mode-"+c.mode, true) })
				if c.leave == "escape-in-widget" {
					p.focusWidget(c.mode)
				}
				told := p.toldCount()
				ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
				defer cancel()
				var err error
				if c.leave == "button" {
					err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#exit-mode")))
				} else {
					err = chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape))
				}
				if err != nil {
					t.Fatal(err)
				}
				p.waitFor("the stage back inline", 10*time.Second, func() string { return p.stageState("mode-inline", false) })
				p.waitFor("the widget told of inline", 10*time.Second, func() string {
					if n := p.toldCount(); n <= told {
						return fmt.Sprintf("%d display-mode messages to the widget, as before leaving", n)
					}
					return ""
				})
			})
		}
	}
}

// TestEscapeTakenByWidget: Escape that the widget handles itself (a dialog
// closing, preventDefault) stays with the widget; the preview stays in
// fullscreen. The widget answers one task after the key, which orders its
// answer after widgetd's forward (queued during the same event, before the
// widget's listener ran): once the page has the answer, a forward would
// have arrived, so no wait proves the negative.
func TestEscapeTakenByWidget(t *testing.T) {
	d := startDev(t, nil)
	d.edit(t, "hello/index.ts", func(s string) string {
		return s + `
addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  event.preventDefault();
  setTimeout(() => {
    message.textContent = "Escape closed the dialog";
    parent.postMessage({ escapeTest: "handled" }, "*");
  });
});
`
	})
	if ev := d.nextBuild(t, 60*time.Second); !ev.OK {
		t.Fatalf("build failed: %+v", ev.Diagnostics)
	}
	for _, host := range []string{"mcp", "chatgpt"} {
		t.Run(host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/hello?host="+host)
			p.waitFrameText("Hello, Ada!", 30*time.Second)
			p.setMode("fullscreen")
			p.waitFor("the stage in fullscreen", 10*time.Second, func() string { return p.stageState("mode-fullscreen", true) })
			p.focusWidget("fullscreen")
			var listening bool
			if err := p.eval(`(() => { window.escapeHandled = false; addEventListener("message", (e) => { if (e.data && e.data.escapeTest === "handled") window.escapeHandled = true; }); return true })()`, &listening); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
			defer cancel()
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
				t.Fatal(err)
			}
			p.waitFor("the widget's answer to Escape", 10*time.Second, func() string {
				var handled bool
				if err := p.eval(`window.escapeHandled`, &handled); err != nil || !handled {
					return fmt.Sprintf("not yet (%v)", err)
				}
				return ""
			})
			if why := p.stageState("mode-fullscreen", true); why != "" {
				t.Errorf("the widget took Escape, yet the stage left fullscreen: %s", why)
			}
		})
	}
}

// focusWidget clicks the widget's title, which puts the keyboard focus in
// the widget's frame, and checks the click left the stage in mode (it did
// not land on the exit button).
func (p *page) focusWidget(mode string) {
	p.t.Helper()
	p.clickInFrame(".hello__title")
	if why := p.stageState("mode-"+mode, true); why != "" {
		p.t.Fatalf("clicking into the widget changed the stage: %s", why)
	}
	var focused bool
	if err := p.eval(`document.activeElement?.id === "widget-frame"`, &focused); err != nil || !focused {
		p.t.Fatalf("the widget frame does not have the focus after a click in it (%v)", err)
	}
}

// setMode picks mode in the Display mode menu as a user does (a change event).
func (p *page) setMode(mode string) {
	p.t.Helper()
	var ok bool
	if err := p.eval(`(() => { const s = document.getElementById("display-mode"); s.value = "`+mode+`"; s.dispatchEvent(new Event("change")); return true })()`, &ok); err != nil {
		p.t.Fatal(err)
	}
}

// stageState is "" when the stage has class cls, the menu agrees, and the
// exit button is (shown) on top of everything at its centre, else why not.
func (p *page) stageState(cls string, shown bool) string {
	var st struct {
		Class, Menu   string
		OnTop, Hidden bool
	}
	err := p.eval(`(() => { const b = document.getElementById("exit-mode"), r = b.getBoundingClientRect();
		return { class: document.getElementById("stage").className, menu: document.getElementById("display-mode").value, hidden: b.hidden,
		  onTop: !b.hidden && document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === b } })()`, &st)
	switch {
	case err != nil:
		return err.Error()
	case !strings.Contains(st.Class, cls) || "mode-"+st.Menu != cls:
		return fmt.Sprintf("stage %q, menu %q", st.Class, st.Menu)
	case shown && !st.OnTop:
		return "the exit button is not visible on top"
	case !shown && !st.Hidden:
		return "the exit button is still shown"
	}
	return ""
}

// toldCount counts messages that gave the widget displayMode "inline".
func (p *page) toldCount() int {
	var n int
	_ = p.eval(`widgetdDev.log.filter(e => e.dir === "out" && JSON.stringify(e.data).includes('"displayMode":"inline"')).length`, &n)
	return n
}

// TestMentionsNotFound pins what the 404 checks above count: a status in
// words or digits, never the digits of a port or a URL.
func TestMentionsNotFound(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Failed to load resource: the server responded with a status of 404 (Not Found)", true},
		{"GET /x.js 404", true},
		{"404 page not found", true},
		{"log security warning: An iframe which has both allow-scripts and allow-same-origin (http://127.0.0.1:40417/_widgetd/hostapp.js)", false},
		{"widgetd dev on 127.0.0.1:40404", false},
		{"built hello in 4.04 ms", false},
	} {
		if got := mentionsNotFound(c.text); got != c.want {
			t.Errorf("mentionsNotFound(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

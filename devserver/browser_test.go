package devserver

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPreviewRendersToolOutput opens the preview of each example widget
// under both hosts in real Chromium and checks that the widget, served from
// the sandbox origin under its strict CSP, renders the tool output.
func TestPreviewRendersToolOutput(t *testing.T) {
	d := startDev(t, nil)
	cases := []struct {
		widget, host, want string
	}{
		{"hello", "mcp-apps", "Hello, Ada!"},
		{"hello", "chatgpt", "Hello, Ada!"},
		{"hello", "claude", "Hello, Ada!"},
		{"hello", "chatgpt-legacy", "Hello, Ada!"},
		{"weather", "mcp-apps", "Sunny spells"},
		{"weather", "chatgpt-legacy", "Sunny spells"},
		{"get-time", "mcp-apps", "2026-01-02T03:04:05Z"},
		{"get-time", "chatgpt-legacy", "2026-01-02T03:04:05Z"},
	}
	for _, c := range cases {
		t.Run(c.widget+"/"+c.host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/"+c.widget+"?host="+c.host)
			p.waitFrameText(c.want, 30*time.Second)
			var host string
			if err := p.eval(`widgetdDev.host`, &host); err != nil || host != c.host {
				t.Fatalf("preview host = %q (%v), want %q", host, err, c.host)
			}
			var kinds []string
			if err := p.eval(`widgetdDev.log.map(e => e.dir + " " + e.kind)`, &kinds); err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(kinds, "\n")
			if c.host == "chatgpt" {
				// window.openai's globals render it before the ui/*
				// handshake ends: wait for that to finish.
				p.waitFor("the ui/* handshake", 20*time.Second, func() string {
					_ = p.eval(`widgetdDev.log.map(e => e.dir + " " + e.kind).join("\n")`, &joined)
					return map[bool]string{true: "", false: "log: " + joined}[strings.Contains(joined, "in ui/notifications/initialized") && strings.Contains(joined, "out ui/notifications/tool-result")]
				})
			}
			if c.host != "chatgpt-legacy" {
				// The real AppBridge handshake happened, then the data went out.
				for _, want := range []string{"in ui/initialize", "out ui/notifications/tool-input", "out ui/notifications/tool-result", "in ui/notifications/initialized"} {
					if !strings.Contains(joined, want) {
						t.Errorf("MCP Apps message log lacks %q:\n%s", want, joined)
					}
				}
			} else if strings.Contains(joined, "ui/initialize") {
				t.Errorf("ChatGPT legacy host spoke MCP Apps:\n%s", joined)
			}
			var violations []any
			_ = p.eval(`widgetdDev.violations`, &violations)
			if len(violations) > 0 {
				t.Errorf("example widget caused CSP violations under the strict CSP: %v", violations)
			}
		})
	}
}

// TestWidgetCallTool checks that a widget's callTool is answered from the
// preview's editable response under both hosts and logged.
func TestWidgetCallTool(t *testing.T) {
	d := startDev(t, nil)
	for _, host := range []string{"mcp-apps", "chatgpt-legacy", "chatgpt"} {
		t.Run(host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/get-time?host="+host)
			p.waitFrameText("2026-01-02T03:04:05Z", 30*time.Second)
			p.clickInFrame("#get-time-btn")
			p.waitFrameText("edited-response-time", 20*time.Second)
			var kinds []string
			_ = p.eval(`widgetdDev.log.map(e => e.dir + " " + e.kind)`, &kinds)
			want := "in tools/call"
			if host == "chatgpt-legacy" {
				want = "in window.openai.callTool"
			}
			if !strings.Contains(strings.Join(kinds, "\n"), want) {
				t.Errorf("log lacks %q: %v", want, kinds)
			}
		})
	}
}

// TestLiveReload edits a widget source and checks the open preview reloads
// the widget with the new content, without reloading the page.
func TestLiveReload(t *testing.T) {
	d := startDev(t, nil)
	for _, host := range []string{"mcp-apps", "chatgpt-legacy"} {
		t.Run(host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/weather?host="+host)
			p.waitFrameText("Oslo", 30*time.Second)
			var mounts int
			_ = p.eval(`widgetdDev.mounts`, &mounts)
			_ = p.eval(`(window.__sameDocument = true)`, new(bool))
			word := "Forecast for " + host
			d.edit(t, "weather/src/App.tsx", func(s string) string {
				if strings.Contains(s, "Forecast for ") {
					return regexp.MustCompile(`Forecast for [\w-]+`).ReplaceAllString(s, word)
				}
				return strings.Replace(s, `{forecast.city ?? "Unknown city"}`, word+` {forecast.city ?? "Unknown city"}`, 1)
			})
			p.waitFrameText(word+" Oslo", 30*time.Second)
			var after int
			var same bool
			_ = p.eval(`widgetdDev.mounts`, &after)
			_ = p.eval(`window.__sameDocument === true`, &same)
			if after <= mounts || !same {
				t.Errorf("mounts %d → %d, same page %v: want the widget remounted in the same page", mounts, after, same)
			}
			if !strings.Contains(d.log.String(), "rebuilt [weather]") {
				t.Errorf("terminal does not report the rebuild:\n%s", d.log)
			}
		})
	}
}

// TestBuildErrorOverlay introduces a syntax error, checks the overlay shows
// file:line:col with the source line (and the terminal too), then fixes it
// and checks the preview recovers by itself.
func TestBuildErrorOverlay(t *testing.T) {
	d := startDev(t, nil)
	p := openPage(t, d.PreviewURL()+"preview/hello")
	p.waitFrameText("Hello, Ada!", 30*time.Second)

	var original string
	var badLine int
	d.edit(t, "hello/index.ts", func(s string) string {
		original = s
		badLine = strings.Count(s, "\n") + 1
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
			badLine++
		}
		return s + "const broken = ;\n"
	})
	wantLoc := regexp.MustCompile(fmt.Sprintf(`hello/index\.ts:%d:(\d+): error: `, badLine))
	var overlay string
	p.waitFor("the error overlay", 30*time.Second, func() string {
		var st struct {
			Hidden bool   `json:"hidden"`
			Text   string `json:"text"`
		}
		if err := p.eval(`({hidden: document.getElementById("overlay").hidden, text: document.getElementById("overlay-text").textContent})`, &st); err != nil {
			return err.Error()
		}
		if st.Hidden || !wantLoc.MatchString(st.Text) {
			return fmt.Sprintf("overlay hidden=%v text=%q", st.Hidden, st.Text)
		}
		overlay = st.Text
		return ""
	})
	t.Logf("overlay:\n%s", overlay)
	if !strings.Contains(overlay, "const broken = ;") || !strings.Contains(overlay, "^") {
		t.Errorf("overlay lacks the source line and caret:\n%s", overlay)
	}
	if !wantLoc.MatchString(d.log.String()) {
		t.Errorf("terminal lacks file:line:col:\n%s", d.log)
	}

	d.edit(t, "hello/index.ts", func(string) string {
		return strings.Replace(original, "Hello, ", "Fixed, ", 1)
	})
	p.waitFor("the overlay to go away", 30*time.Second, func() string {
		var hidden bool
		if err := p.eval(`document.getElementById("overlay").hidden`, &hidden); err != nil || !hidden {
			return fmt.Sprintf("hidden=%v err=%v", hidden, err)
		}
		return ""
	})
	p.waitFrameText("Fixed, Ada!", 30*time.Second)
	if !strings.Contains(d.log.String(), "build fixed") {
		t.Errorf("terminal does not report the recovery:\n%s", d.log)
	}
}

// TestCSPViolationReported makes a widget fetch an undeclared origin and
// load an image from another, and checks both violations are reported in
// the preview and the terminal with the widget.json field to fix.
func TestCSPViolationReported(t *testing.T) {
	d := startDev(t, nil)
	d.edit(t, "hello/index.ts", func(s string) string {
		return s + "\nfetch(\"https://api.example.com/v1/data\").catch(() => {});\n" +
			"const probe = new Image();\nprobe.src = \"https://img.example.com/pic.png\";\n"
	})
	d.nextBuild(t, 30*time.Second)
	for _, host := range []string{"mcp-apps", "chatgpt-legacy"} {
		t.Run(host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/hello?host="+host)
			p.waitFrameText("Hello, Ada!", 30*time.Second)
			want := map[string]string{"https://api.example.com": "csp.connectDomains", "https://img.example.com": "csp.resourceDomains"}
			p.waitFor("both violations with their fields", 20*time.Second, func() string {
				var text string
				if err := p.eval(`document.getElementById("violations").textContent`, &text); err != nil {
					return err.Error()
				}
				for origin, field := range want {
					if !strings.Contains(text, field+` += "`+origin+`"`) {
						return fmt.Sprintf("violations panel %q lacks %s += %s", text, field, origin)
					}
				}
				return ""
			})
			var vs []cspAdvice
			if err := p.eval(`widgetdDev.violations`, &vs); err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if v.Widget != "hello" || !strings.HasSuffix(v.ConfigFile, "hello/widget.json") {
					t.Errorf("advice names widget %q, config %q", v.Widget, v.ConfigFile)
				}
			}
		})
	}
	term := d.log.String()
	t.Logf("terminal:\n%s", term)
	for _, want := range []string{
		`connect-src blocked https://api.example.com/v1/data: add "https://api.example.com" to csp.connectDomains in `,
		`img-src blocked https://img.example.com/pic.png: add "https://img.example.com" to csp.resourceDomains in `,
	} {
		if !strings.Contains(term, want) {
			t.Errorf("terminal lacks %q:\n%s", want, term)
		}
	}
}

// TestHostControls changes host context controls and checks they reach the
// running widget under each host, and that invalid JSON in an editor is
// flagged and blocks sending.
func TestHostControls(t *testing.T) {
	d := startDev(t, nil)
	const uiTheme = `out ui/notifications/host-context-changed {"theme":"dark","background":"#18181b","fonts":true}`
	const openaiTheme = `out openai:set_globals {"theme":"dark"}`
	for _, c := range []struct {
		host  string
		wants []string
	}{
		// The AppBridge hosts send the theme with the spec's style variables;
		// window.openai, like ChatGPT, only the globals that changed; today's
		// ChatGPT both.
		{"mcp-apps", []string{uiTheme}},
		{"chatgpt-legacy", []string{openaiTheme}},
		{"chatgpt", []string{uiTheme, openaiTheme}},
	} {
		t.Run(c.host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/hello?host="+c.host)
			p.waitFrameText("Hello, Ada!", 30*time.Second)
			if HostAnswersUI(c.host) {
				// On chatgpt the text shows from window.openai before the ui/*
				// session is up; a change made before it travels in the
				// ui/initialize result instead of host-context-changed.
				p.waitFor("the ui/* session", 30*time.Second, func() string {
					var up bool
					if err := p.eval(`widgetdDev.initialized`, &up); err != nil || !up {
						return "not initialized yet"
					}
					return ""
				})
			}
			var ok bool
			if err := p.eval(`(() => { const s = document.getElementById("theme"); s.value = "dark"; s.dispatchEvent(new Event("change")); return true; })()`, &ok); err != nil {
				t.Fatal(err)
			}
			p.waitFor("the theme change in the message log", 10*time.Second, func() string {
				var entries []string
				_ = p.eval(`widgetdDev.log.map(e => e.dir + " " + e.kind + " " + JSON.stringify(e.kind === "ui/notifications/host-context-changed" ? {theme: e.data.params.theme, background: e.data.params.styles?.variables?.["--color-background-primary"], fonts: !!e.data.params.styles?.css?.fonts} : e.data))`, &entries)
				for _, want := range c.wants {
					if !slices.Contains(entries, want) {
						return fmt.Sprintf("log lacks %q: %q", want, entries)
					}
				}
				return ""
			})
			var st struct {
				Disabled bool   `json:"disabled"`
				Err      string `json:"err"`
			}
			if err := p.eval(`(() => { const e = document.getElementById("tool-output"); e.value = "{ nope"; e.dispatchEvent(new Event("input")); return true; })()`, new(bool)); err != nil {
				t.Fatal(err)
			}
			// The UI renders the edit on its next frame, not inside the event.
			p.waitFor("the invalid tool output flagged", 5*time.Second, func() string {
				if err := p.eval(`({disabled: document.getElementById("apply").disabled, err: document.getElementById("tool-output-err").textContent})`, &st); err != nil {
					return err.Error()
				}
				// The error says where: line:col of "{ nope" (the n at 1:3).
				if !st.Disabled || !strings.HasPrefix(st.Err, "1:3: ") {
					return fmt.Sprintf("invalid tool output JSON: apply disabled=%v, error %q", st.Disabled, st.Err)
				}
				return ""
			})
		})
	}
}

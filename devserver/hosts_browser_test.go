package devserver

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/browsertest"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// appClassWidget is a widget written only against the ext-apps App class
// (no widgetd import). It shows the tool result, the hostInfo name and display modes the host answered
// ui/initialize with, and how long after its document loaded the result
// showed, less the time its thread was stalled (as bundler/bridge
// testdata/matrix/firstrender.ts measures, so a loaded CPU does not count).
var appClassWidget = map[string]string{
	"widget.json": `{"title": "App class widget", "domain": "https://widgets.example.com"}`,
	"index.html": `<!doctype html><html><head><meta charset="utf-8"><title>app</title></head>
<body><pre id="output">waiting</pre><pre id="host"></pre><pre id="first"></pre>
<script type="module" src="./main.ts"></script></body></html>`,
	"main.ts": `import { App } from "@modelcontextprotocol/ext-apps";
const rec = { loaded: -1, rendered: -1, stalled: 0 };
let lastTick = performance.now();
function gap(now: number) {
  if (rec.loaded >= 0) rec.stalled += Math.max(0, now - Math.max(lastTick, rec.loaded) - 5);
  lastTick = now;
}
function tick() { if (rec.rendered < 0) { gap(performance.now()); setTimeout(tick, 5); } }
setTimeout(tick, 5);
document.addEventListener("DOMContentLoaded", () => (rec.loaded = performance.now()));
const $ = (id: string) => document.getElementById(id)!;
const app = new App({ name: "hosts-app", version: "1.0.0" }, {});
app.ontoolresult = (r) => {
  $("output").textContent = "result " + JSON.stringify(r.structuredContent ?? null);
  if (rec.rendered >= 0) return;
  rec.rendered = performance.now();
  gap(rec.rendered);
  const since = Math.max(0, rec.rendered - rec.loaded);
  $("first").textContent = "first-render waited=" + Math.round(Math.max(0, since - rec.stalled)) + " since-load=" + Math.round(since);
};
app.connect().then(() => {
  $("host").textContent = "host: " + (app.getHostVersion()?.name ?? "?") + " modes: " + (app.getHostContext()?.availableDisplayModes ?? []).join(",");
}, (e) => ($("host").textContent = "no host: " + e.message));
`,
	"fixtures/default.json": `{"toolInput": {"city": "Oslo"}, "toolResult": {"structuredContent": {"temp": 3}}}`,
}

// startAppClassDev starts a dev server on a project holding appClassWidget,
// with the test hosts' node_modules (ext-apps) linked in.
func startAppClassDev(t *testing.T) *devServer {
	t.Helper()
	hosts, err := browsertest.HostsDir()
	if err != nil {
		t.Fatal(err)
	}
	nm := browsertest.RequireNodeModules(t, hosts, "@modelcontextprotocol/ext-apps")
	root := t.TempDir()
	widgets := filepath.Join(root, "widgets")
	testfiles.Write(t, filepath.Join(widgets, "app"), appClassWidget)
	if err := os.Symlink(nm, filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(fmt.Sprintf(`{"allowOutside": [%q]}`, nm)), 0o644); err != nil {
		t.Fatal(err)
	}
	return startDev(t, func(o *Options) { o.Root, o.WidgetsDir = root, widgets })
}

// TestPreviewHosts opens the App-class widget under each preview host (and
// the old name "mcp") and checks what each host is: who answers
// ui/initialize with which hostInfo, display modes and palette, whether the frame
// is loaded with window.openai, that only Claude notes a foreign ui.domain,
// and that the widget renders the tool result.
func TestPreviewHosts(t *testing.T) {
	d := startAppClassDev(t)
	for _, c := range []struct {
		query, host string
		answers     string // hostInfo.name of the ui/initialize answer; "" for none
		openai      bool   // the frame is loaded with the window.openai shim
		modes       string
		background  string // --color-background-secondary of the light theme
	}{
		{"mcp-apps", HostMCPApps, "widgetd-dev", false, "inline,pip,fullscreen", "#f4f4f5"},
		{"mcp", HostMCPApps, "widgetd-dev", false, "inline,pip,fullscreen", "#f4f4f5"},
		{"chatgpt", HostChatGPT, "chatgpt", true, "inline,pip,fullscreen", "#f4f4f5"},
		{"claude", HostClaude, "Claude", false, "inline,fullscreen", "#f5f4ed"},
		{"chatgpt-legacy", HostChatGPTLegacy, "", true, "", ""},
	} {
		t.Run(c.query, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/app?host="+c.query)
			p.waitFor("the widget document to load", 30*time.Second, func() string {
				var loaded bool
				_ = p.eval(`widgetdDev.loaded`, &loaded)
				return map[bool]string{true: "", false: "not loaded"}[loaded]
			})
			var host string
			if err := p.eval(`widgetdDev.host`, &host); err != nil || host != c.host {
				t.Fatalf("preview host = %q (%v), want %q", host, err, c.host)
			}
			// The sandbox origin injects the shim for ?host= with window.openai
			// (TestSandboxServesSpecCSP); here the frame must be loaded so.
			var src string
			if err := p.eval(`document.getElementById("widget-frame").src`, &src); err != nil {
				t.Fatal(err)
			}
			if want := "host=" + c.host + "&"; !strings.Contains(src, want) || strings.Contains(src, "#") != c.openai {
				t.Errorf("frame src %q: want %q, window.openai globals in the fragment %v", src, want, c.openai)
			}
			var answered string
			answer := `widgetdDev.log.find(e => e.dir === "out" && e.data?.result?.hostInfo)?.data.result.hostInfo.name ?? ""`
			if c.answers == "" {
				// Give an answer time to arrive before saying there was none.
				time.Sleep(500 * time.Millisecond)
				if err := p.eval(answer, &answered); err != nil || answered != "" {
					t.Errorf("%s answered ui/initialize as %q (%v)", c.query, answered, err)
				}
				return
			}
			// Claude renders nothing for a ui.domain not its hash domain; the
			// preview notes it (widgetd's assets handler rewrites it for Claude).
			var domainNote bool
			if err := p.eval(`widgetdDev.log.some(e => e.kind === "ui.domain (Claude)" && e.data.includes("claudemcpcontent.com"))`, &domainNote); err != nil || domainNote != (c.host == HostClaude) {
				t.Errorf("Claude ui.domain note %v (%v), want %v", domainNote, err, c.host == HostClaude)
			}
			text := p.waitFrameText(`result {"temp":3}`, 30*time.Second)
			p.waitFrameText("host: "+c.answers+" modes: "+c.modes, 10*time.Second)
			if err := p.eval(answer, &answered); err != nil || answered != c.answers {
				t.Errorf("ui/initialize answered with hostInfo.name %q (%v), want %q; frame: %q", answered, err, c.answers, text)
			}
			var background string
			bg := `widgetdDev.log.find(e => e.dir === "out" && e.data?.result?.hostInfo).data.result.hostContext.styles.variables["--color-background-secondary"]`
			if err := p.eval(bg, &background); err != nil || background != c.background {
				t.Errorf("host context --color-background-secondary %q (%v), want %q", background, err, c.background)
			}
		})
	}
}

// chatgptRenderBound is the issue 22 bound: an ext-apps App widget renders
// on the chatgpt host within 300 ms of its document loading.
const chatgptRenderBound = 300

// TestAppClassRendersOnChatGPT measures, in the widget's own document, how
// long after loading an App-class widget waits for the tool result on the
// chatgpt host (thread stalls excluded), and fails only when each of three
// fresh pages is over chatgptRenderBound, so a busy machine does not fail
// it while a wait built into the host or bridge does.
func TestAppClassRendersOnChatGPT(t *testing.T) {
	d := startAppClassDev(t)
	re := regexp.MustCompile(`first-render waited=(\d+) since-load=(\d+)`)
	var tries []string
	for range 3 {
		p := openPage(t, d.PreviewURL()+"preview/app?host=chatgpt")
		text := p.waitFrameText("first-render waited=", 30*time.Second)
		m := re.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("no measurement in %q", text)
		}
		tries = append(tries, m[0])
		if waited, _ := strconv.Atoi(m[1]); waited <= chatgptRenderBound {
			t.Logf("App class on chatgpt: %s", strings.Join(tries, ", then "))
			return
		}
	}
	t.Errorf("an App-class widget waited over %d ms on the chatgpt host on each page: %s", chatgptRenderBound, strings.Join(tries, ", "))
}

// TestNoCSPToggle turns on "no CSP (as ChatGPT developer mode)" for a widget
// that fetches an undeclared origin: the frame is reloaded without the CSP,
// no violation is reported, and the note says what that hides; turned off,
// the violation is back.
func TestNoCSPToggle(t *testing.T) {
	d := startDev(t, nil)
	d.edit(t, "hello/index.ts", func(s string) string {
		return s + "\nfetch(\"https://api.example.com/v1/data\").catch(() => {});\n"
	})
	d.nextBuild(t, 30*time.Second)
	p := openPage(t, d.PreviewURL()+"preview/hello?host=chatgpt&csp=none")
	p.waitFrameText("Hello, Ada!", 30*time.Second)
	var st struct {
		Checked bool
		Note    string
		Src     string
	}
	state := `({Checked: document.getElementById("no-csp").checked, Note: document.getElementById("no-csp-note").hidden ? "" : document.getElementById("no-csp-note").textContent, Src: document.getElementById("widget-frame").src})`
	if err := p.eval(state, &st); err != nil {
		t.Fatal(err)
	}
	if !st.Checked || !strings.Contains(st.Note, "blocked after submission") || !strings.Contains(st.Src, "&csp=none") {
		t.Errorf("with ?csp=none: %+v", st)
	}
	time.Sleep(time.Second) // a violation would have been reported by now
	var n int
	if err := p.eval(`widgetdDev.violations.length`, &n); err != nil || n != 0 {
		t.Errorf("violations without a CSP: %d (%v)", n, err)
	}
	if err := p.eval(`(() => { const c = document.getElementById("no-csp"); c.checked = false; c.dispatchEvent(new Event("change")); return true })()`, new(bool)); err != nil {
		t.Fatal(err)
	}
	p.waitFor("the connect-src violation under the strict CSP", 20*time.Second, func() string {
		var origins []string
		_ = p.eval(`widgetdDev.violations.map(v => v.origin)`, &origins)
		if !slices.Contains(origins, "https://api.example.com") {
			return fmt.Sprintf("violations %v", origins)
		}
		return ""
	})
	if err := p.eval(state, &st); err != nil || st.Note != "" || strings.Contains(st.Src, "csp=none") {
		t.Errorf("after turning it off: %+v (%v)", st, err)
	}
}

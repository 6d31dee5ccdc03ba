package bridge_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/widgetd/widgetd/internal/browsertest"
)

// noHandshakePage is what a bundler without a bridge makes of the matrix's
// raw widget (testdata/matrix/raw, whose page matrixPage writes, and the
// vanilla shape of bench/shapes, which Vite 8 builds to the same): a
// "message" listener for the host's notifications and nothing that sends
// ui/initialize.
const noHandshakePage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>raw</title></head><body>` +
	`<main><pre id="input">waiting</pre><pre id="output">waiting</pre></main><script type="module">` +
	`window.addEventListener("message", (e) => { const m = e.data; if (e.source !== window.parent || m?.jsonrpc !== "2.0") return;` +
	` if (m.method == "ui/notifications/tool-input") document.getElementById("input").textContent = JSON.stringify(m.params.arguments ?? null);` +
	` if (m.method == "ui/notifications/tool-result") document.getElementById("output").textContent = JSON.stringify(m.params.structuredContent ?? null); });` +
	`window.t = {};</script></body></html>`

// TestNoHandshakeNoResult makes the size comparison with Vite honest: the
// AppBridge (the spec's host) sends a view its tool result only after the
// view's ui/initialize, so a raw-listener page built without a bridge never
// shows it, while widgetd's build of the same widget (bridge level core,
// whose handshake core makes the session) does. Both get the result from the
// host at once.
func TestNoHandshakeNoResult(t *testing.T) {
	t.Parallel()
	builds, err := matrixBuilds()
	if err != nil {
		t.Fatal(err)
	}
	hosts := shared.Hosts(t)
	mux := http.NewServeMux()
	mux.Handle("/", hosts.Handler())
	var csp string
	for _, w := range builds.inline.Manifest.Widgets {
		if w.Name == "raw" {
			if w.Bridge != "core" {
				t.Fatalf("raw widget got bridge %q, want core", w.Bridge)
			}
			csp = w.CSP
			mux.Handle("GET /w/widgetd", browsertest.WidgetHandler(builds.inline.Files[w.HTML], w.CSP))
		}
	}
	mux.Handle("GET /w/bare", browsertest.WidgetHandler([]byte(noHandshakePage), csp))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	output := W + `.document.getElementById("output").textContent`
	arg := map[string]any{"input": map[string]any{"city": "Oslo"}, "result": matrixResult}
	p := open(t, srv, "/mcp-host", "/w/widgetd", arg)
	p.Wait(W + `.t`)
	if !try(p, output+` == '{"temp":3}'`) {
		t.Fatal("widgetd's build of the raw widget did not show the tool result on the AppBridge")
	}
	p.NoErrors()

	bare := open(t, srv, "/mcp-host", "/w/bare", arg)
	bare.Wait(W + `.t`)
	// Long enough for the widgetd page to have rendered several times over.
	bare.Eval(`new Promise(r => setTimeout(r, 1500))`, nil)
	var got string
	bare.Eval(output, &got)
	if got != "waiting" {
		t.Errorf("the page without a handshake shows %q; the AppBridge should have sent it nothing", got)
	}
	if n := countIn(bare, "ui/initialize"); n != 0 {
		t.Errorf("the page without a handshake sent ui/initialize %d times", n)
	}
	var initialized bool
	bare.Eval(`hostLog.some(e => e.t == "initialized")`, &initialized)
	if initialized {
		t.Error("the AppBridge saw the page initialized")
	}
}

package bridge_test

import (
	"strings"
	"testing"
)

// TestChatGPTExtras drives widgetd/chatgpt: on the ChatGPT host each extra
// the host offers is called with ChatGPT's argument shape, and one it lacks
// (requestCheckout) fails typed; on the AppBridge, whose polyfilled
// window.openai has no ChatGPT-only methods, they all fail typed.
func TestChatGPTExtras(t *testing.T) {
	t.Parallel()
	srv := serve(t)

	t.Run("chatgpt", func(t *testing.T) {
		p := open(t, srv, "/chatgpt-host", "/w/extras?host=chatgpt", map[string]any{"view": map[string]any{"mode": "modal", "params": map[string]any{"id": 7}}})
		p.Wait(W + `.t`)
		checkHostCalls(t, p, "window.openai.", []hostCall{
			{`c => c.selectFiles()`, "selectFiles", nil},
			{`c => c.uploadFile(new File(["x"], "a.png"), {library: true})`, "uploadFile", map[string]any{"name": "a.png", "options": map[string]any{"library": true}}},
			{`c => c.getFileDownloadUrl("file_1")`, "getFileDownloadUrl", map[string]any{"fileId": "file_1"}},
			{`c => c.requestModal({params: {id: 1}, title: "Edit"})`, "requestModal", map[string]any{"params": map[string]any{"id": 1}, "title": "Edit"}},
			{`c => c.setOpenInAppUrl("https://app.example/x")`, "setOpenInAppUrl", map[string]any{"href": "https://app.example/x"}},
			{`c => c.sendFollowUpMessage("more", {scrollToBottom: false})`, "sendFollowUpMessage", map[string]any{"prompt": "more", "scrollToBottom": false}},
			{`c => c.requestClose()`, "requestClose", nil},
		})
		eq(t, "selectFiles result", p.run(`c => c.selectFiles()`)["ok"], []any{map[string]any{"fileId": "file_2", "fileName": "b.png", "mimeType": "image/png"}})
		eq(t, "view", p.run(`c => c.view()`)["ok"], map[string]any{"mode": "modal", "params": map[string]any{"id": 7}})
		r := p.run(`c => c.requestCheckout({id: "cs_1"})`)
		eq(t, "requestCheckout where absent", r["err"], "unsupported")
		eq(t, "instanceof WidgetdError", r["isWidgetdError"], true)
		eq(t, "has", p.run(`c => ["selectFiles", "requestCheckout"].map(c.has)`)["ok"], []any{true, false})
		p.NoErrors()
	})

	t.Run("mcp-apps", func(t *testing.T) {
		p := open(t, srv, "/mcp-host", "/w/extras", map[string]any{})
		p.Wait(`hostLog.some(e => e.t == "initialized")`) // the session starts at load, no API use needed
		p.Wait(W + `.openai.view.mode == "inline"`)
		for _, call := range []string{`c => c.selectFiles()`, `c => c.uploadFile(new File(["x"], "a.png"))`, `c => c.requestModal({})`, `c => c.setOpenInAppUrl("https://x.example")`, `c => c.requestCheckout({})`} {
			eq(t, call, p.run(call)["err"], "unsupported")
		}
		eq(t, "view", p.run(`c => c.view()`)["ok"], map[string]any{"mode": "inline"})
		p.NoErrors()
	})

	t.Run("tree-shaken", func(t *testing.T) {
		out, ws := buildOutput(t)
		if api := string(out.Files[ws["api"].HTML]); strings.Contains(api, "setOpenInAppUrl") {
			t.Error("a widget that does not import widgetd/chatgpt carries its code")
		}
		if ex := string(out.Files[ws["extras"].HTML]); !strings.Contains(ex, "setOpenInAppUrl") {
			t.Error("the extras widget lacks widgetd/chatgpt")
		}
	})
}

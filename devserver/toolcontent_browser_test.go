package devserver

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/fixture"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestToolContentEditor: the Tool panel's content editor sets the content
// blocks of the tool result the widget is sent (what the model reads,
// which widgets such as the official examples read text from). Empty, the
// result carries one text block of the output as JSON, as the MCP SDKs
// send it; edited, it carries the blocks typed; anything but an array of
// typed blocks is flagged at the editor and cannot be sent.
func TestToolContentEditor(t *testing.T) {
	root, widgets := copyWidgets(t)
	testfiles.Write(t, filepath.Join(widgets, "hello", fixture.Dir), map[string]string{"told.json": `{
  "toolResult": {"structuredContent": {"name": "Told"}, "content": [{"type": "text", "text": "told the model"}]}
}`})
	d := startDevIn(t, root, widgets, nil)

	// A fixture's content is shown and sent as it is.
	p := openPage(t, d.PreviewURL()+"preview/hello?host=mcp&fixture=told")
	p.waitFrameText("Hello, Told!", 30*time.Second)
	p.click("#tab-tool")
	var text string
	if err := p.eval(`document.getElementById("tool-content").value`, &text); err != nil || !strings.Contains(text, `"told the model"`) {
		t.Fatalf("content editor holds %q (%v), want the fixture's content", text, err)
	}
	p.waitContentSent(`[{"type":"text","text":"told the model"}]`)

	p = openPage(t, d.PreviewURL()+"preview/hello?host=mcp&fixture=preview")
	p.waitFrameText("Hello, Ada!", 30*time.Second)
	p.click("#tab-tool")
	if err := p.eval(`document.getElementById("tool-content").value`, &text); err != nil || text != "" {
		t.Fatalf("content editor holds %q (%v), want empty for a fixture without content", text, err)
	}
	p.waitContentSent(`[{"type":"text","text":"{\"message\":\"from the tool output\",\"name\":\"Ada\"}"}]`)

	p.typeContent(`[{"type": "text", "text": "Ada was greeted"}, {"type": "text", "text": "second block"}]`)
	p.waitFor("Send enabled", 5*time.Second, func() string { return p.contentEditorState(false, "") })
	p.click("#apply")
	p.waitContentSent(`[{"type":"text","text":"Ada was greeted"},{"type":"text","text":"second block"}]`)

	for _, c := range []struct{ text, err string }{
		{`{"type": "text", "text": "not in an array"}`, "1:1: must be a JSON array of content blocks"},
		{`[{"type": "text"}, {"text": "no type"}]`, `block 2: must be an object with a string "type"`},
		{`[{"type": "text",`, "1:"},
	} {
		p.typeContent(c.text)
		p.waitFor("the content "+c.text+" flagged", 5*time.Second, func() string { return p.contentEditorState(true, c.err) })
	}
}

// typeContent replaces the content editor's text as typing does.
func (p *page) typeContent(text string) {
	p.t.Helper()
	p.do(fmt.Sprintf(`(() => { const e = document.getElementById("tool-content"); e.value = %q; e.dispatchEvent(new Event("input")); })()`, text))
}

// contentEditorState is "" when Send is disabled exactly when want says so
// and the editor's error starts with err, else what differs.
func (p *page) contentEditorState(disabled bool, err string) string {
	var st struct {
		Disabled bool   `json:"disabled"`
		Err      string `json:"err"`
	}
	if e := p.eval(`({disabled: document.getElementById("apply").disabled, err: document.getElementById("tool-content-err").textContent})`, &st); e != nil {
		return e.Error()
	}
	if st.Disabled != disabled || !strings.HasPrefix(st.Err, err) || (err == "" && st.Err != "") {
		return fmt.Sprintf("Send disabled=%v, error %q; want disabled=%v, error starting %q", st.Disabled, st.Err, disabled, err)
	}
	return ""
}

// waitContentSent waits until the last tool result sent to the widget
// carries content (JSON, compared as values: key order aside).
func (p *page) waitContentSent(content string) {
	p.t.Helper()
	var want any
	if err := json.Unmarshal([]byte(content), &want); err != nil {
		p.t.Fatal(err)
	}
	p.waitFor("a tool result with content "+content, 20*time.Second, func() string {
		var got any
		if err := p.eval(`widgetdDev.log.filter(e => e.dir === "out" && e.kind === "ui/notifications/tool-result").at(-1)?.data?.params?.content`, &got); err != nil {
			return err.Error()
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("last tool result content %v", got)
		}
		return ""
	})
}

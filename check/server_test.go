package check

import (
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
)

// TestRunServer covers the server cross-checks on a build with one widget,
// its alias and a retained earlier build, for tools linking each kind of
// URI and servers listing more than the build has. Each case lists the
// findings as "subject: rule: severity" and a word of the message.
func TestRunServer(t *testing.T) {
	const current, alias, old = "ui://widget/w.aaaa.html", "ui://widget/w.html", "ui://widget/w.bbbb.html"
	in := &Input{Manifest: &assets.Manifest{
		Widgets: []assets.Widget{{Name: "w", Profiles: []assets.Resource{{URI: current, AliasURI: alias}}}},
		Builds: []assets.Build{
			{ID: "cur", Widgets: map[string]assets.BuildWidget{"w": {URIs: []string{current}}}},
			{ID: "old", Widgets: map[string]assets.BuildWidget{"w": {URIs: []string{old}}}},
		},
	}}
	for _, tc := range []struct {
		name string
		srv  Server
		want []string
	}{
		{"current link, listed", Server{Tools: []audit.Tool{widgetTool("t", current, true)}, Listed: []string{current}}, nil},
		{"alias link, readable", Server{Tools: []audit.Tool{widgetTool("t", alias, true)}, Listed: []string{current}, Readable: []string{alias}}, nil},
		{"no outputSchema", Server{Tools: []audit.Tool{widgetTool("t", current, false)}, Listed: []string{current}},
			[]string{"tool t: tool-output-schema-missing: warning: outputSchema"}},
		{"earlier build, readable", Server{Tools: []audit.Tool{widgetTool("t", old, true)}, Listed: []string{current}, Readable: []string{old}},
			[]string{"tool t: tool-resource-not-in-build: error: earlier build old"}},
		{"unknown and unanswered", Server{Tools: []audit.Tool{widgetTool("t", "ui://widget/x.html", true)}, Listed: []string{current}},
			[]string{"tool t: tool-resource-unknown: error: openai/outputTemplate", "tool t: tool-resource-unknown: error: ui.resourceUri",
				"tool t: tool-resource-unknown: error: ui/resourceUri", "tool t: tool-resource-not-in-build: error: not a widget resource of the checked build"}},
		{"server lists another build", Server{Tools: []audit.Tool{widgetTool("t", current, true)}, Listed: []string{current, old, "file:///x"}},
			[]string{"server: server-resource-not-in-build: warning: earlier build old"}},
		{"tool without a widget", Server{Tools: []audit.Tool{widgetTool("t", "", false)}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := RunServer(tc.srv, in)
			if len(got) != len(tc.want) {
				t.Fatalf("%d findings, want %d: %v", len(got), len(tc.want), got)
			}
			for i, f := range got {
				head, word, _ := strings.Cut(tc.want[i], ": "+f.Severity.String()+": ")
				if f.Subject+": "+f.Rule != head || !strings.Contains(f.Message, word) || f.Fix == "" {
					t.Errorf("finding %d = %s, want %s", i, f, tc.want[i])
				}
			}
		})
	}
}

// widgetTool is a tool with every required annotation that links uri (when
// set) under all three keys and declares an outputSchema when withSchema.
func widgetTool(name, uri string, withSchema bool) audit.Tool {
	t := audit.Tool{Name: name, Annotations: map[string]any{"readOnlyHint": true, "destructiveHint": false, "openWorldHint": false}}
	if uri != "" {
		t.Meta = map[string]any{"ui": map[string]any{"resourceUri": uri}, "ui/resourceUri": uri, "openai/outputTemplate": uri}
	}
	if withSchema {
		t.OutputSchema = map[string]any{"type": "object"}
	}
	return t
}

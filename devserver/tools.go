package devserver

import (
	"context"
	"strings"
	"time"
)

// widgetTools asks the --mcp server which tool shows each widget: the
// tool whose _meta ui.resourceUri (or ui/resourceUri, or
// openai/outputTemplate) is one of the widget's URIs. The preview's "Tool
// name" defaults to it when no fixture names a tool. Errors (the server is
// not up yet) give no names; the next rebuild asks again. It reads every
// page of tools/list (up to maxServerTools), as the inspector API does.
func (f *forwarder) widgetTools(ctx context.Context) map[string]string {
	if f == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	res, err := f.listTools(ctx, nil)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, t := range res.Tools {
		if w := widgetOfURI(t.ResourceURI); w != "" {
			if _, seen := out[w]; !seen {
				out[w] = t.Name
			}
		}
	}
	return out
}

// toolResourceURI reads the widget URI a tool's _meta links to.
func toolResourceURI(meta map[string]any) string {
	if ui, ok := meta["ui"].(map[string]any); ok {
		if s, ok := ui["resourceUri"].(string); ok {
			return s
		}
	}
	for _, k := range []string{"ui/resourceUri", "openai/outputTemplate"} {
		if s, ok := meta[k].(string); ok {
			return s
		}
	}
	return ""
}

// widgetOfURI is the widget name of ui://widget/<name>[.<hash>][.skybridge].html.
func widgetOfURI(uri string) string {
	rest, ok := strings.CutPrefix(uri, "ui://widget/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, ".")
	return name
}

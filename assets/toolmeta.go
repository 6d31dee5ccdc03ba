package assets

import (
	"fmt"
	"unicode/utf8"
)

// Visibility values of _meta.ui.visibility.
const (
	// VisibilityModel lets the model see and call the tool.
	VisibilityModel = "model"
	// VisibilityApp lets the widget call the tool.
	VisibilityApp = "app"
)

// MaxInvocationText is ChatGPT's limit, in characters, on the
// openai/toolInvocation/* status texts. ToolMeta refuses longer ones and the
// audit rules (package audit) report them on tools built without ToolMeta.
const MaxInvocationText = 64

// ToolOptions are the tool-side settings ToolMeta writes.
type ToolOptions struct {
	// Visibility is _meta.ui.visibility: VisibilityModel and/or VisibilityApp.
	// Nil means the default (both) and writes no ui.visibility key.
	Visibility []string
	// Invoking is the status text while the tool runs (at most
	// MaxInvocationText characters).
	Invoking string
	// Invoked is the status text after the tool ran (at most
	// MaxInvocationText characters).
	Invoked string
}

// visibility reports who may call the tool under o.Visibility.
func (o ToolOptions) visibility() (model, app bool, err error) {
	if o.Visibility == nil {
		return true, true, nil
	}
	if len(o.Visibility) == 0 {
		return false, false, fmt.Errorf("visibility must name %q and/or %q", VisibilityModel, VisibilityApp)
	}
	for _, v := range o.Visibility {
		switch v {
		case VisibilityModel:
			model = true
		case VisibilityApp:
			app = true
		default:
			return false, false, fmt.Errorf("visibility %q: want %q or %q", v, VisibilityModel, VisibilityApp)
		}
	}
	return model, app, nil
}

// ToolMeta returns the _meta that links a tool to widget: ui.resourceUri and
// the legacy flat ui/resourceUri (the mcp-app URI), openai/outputTemplate
// (the skybridge URI, or the mcp-app URI when the widget has no skybridge
// profile), ui.visibility, and the legacy openai/widgetAccessible and
// openai/visibility derived from it, plus openai/toolInvocation/invoking and
// invoked. The URIs are the current hashed ones. A fresh map each call, as
// the SDKs take a tool's _meta.
func (r *Registry) ToolMeta(widget string, o ToolOptions) (map[string]any, error) {
	w, ok := r.widgets[widget]
	if !ok {
		return nil, fmt.Errorf("tool meta: widget %q: %w", widget, ErrNotFound)
	}
	model, app, err := o.visibility()
	if err != nil {
		return nil, fmt.Errorf("tool meta: widget %q: %w", widget, err)
	}
	mcpURI, skyURI := toolURIs(w)
	ui := map[string]any{"resourceUri": mcpURI}
	if o.Visibility != nil {
		vis := make([]any, len(o.Visibility))
		for i, v := range o.Visibility {
			vis[i] = v
		}
		ui["visibility"] = vis
	}
	m := map[string]any{
		"ui":                      ui,
		"ui/resourceUri":          mcpURI,
		"openai/outputTemplate":   skyURI,
		"openai/widgetAccessible": app,
		"openai/visibility":       "public",
	}
	if !model {
		m["openai/visibility"] = "private"
	}
	for _, s := range []struct{ key, text string }{{"openai/toolInvocation/invoking", o.Invoking}, {"openai/toolInvocation/invoked", o.Invoked}} {
		if s.text == "" {
			continue
		}
		if n := utf8.RuneCountInString(s.text); n > MaxInvocationText {
			return nil, fmt.Errorf("tool meta: widget %q: %s is %d characters, at most %d allowed", widget, s.key, n, MaxInvocationText)
		}
		m[s.key] = s.text
	}
	return m, nil
}

// toolURIs returns the widget's current mcp-app and skybridge URIs, each
// standing in for the other when the widget has only one profile.
func toolURIs(w *Widget) (mcpURI, skyURI string) {
	for _, p := range w.Profiles {
		switch p.Profile {
		case ProfileMCPApp:
			mcpURI = p.URI
		case ProfileSkybridge:
			skyURI = p.URI
		}
	}
	if mcpURI == "" {
		mcpURI = skyURI
	}
	if skyURI == "" {
		skyURI = mcpURI
	}
	return mcpURI, skyURI
}

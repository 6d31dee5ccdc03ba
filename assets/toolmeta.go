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
	// FileParams is openai/fileParams: the top-level input fields that
	// receive files ChatGPT hands the tool. Each must have the file object
	// schema the audit rules check (package audit). Nil writes no key.
	FileParams []string
	// SecuritySchemes is the tool's authentication (OAuth apps): written to
	// _meta["securitySchemes"], the mirror OpenAI's reference asks for;
	// gosdk.AddSecuritySchemes and mcpgo.SecuritySchemesHandler (HTTP) or
	// mcpgo.SecuritySchemesWriter (stdio) also send it as the tool's
	// top-level securitySchemes. Nil writes no key.
	SecuritySchemes []SecurityScheme
}

// Security scheme types a tool may declare in SecurityScheme.Type.
const (
	// SecurityNoAuth lets a caller without a token call the tool.
	SecurityNoAuth = "noauth"
	// SecurityOAuth2 requires an OAuth 2.1 token with SecurityScheme.Scopes.
	SecurityOAuth2 = "oauth2"
)

// SecurityScheme is one entry of a tool's securitySchemes, as OpenAI's Apps
// SDK reference and SEP-1488 define it: any one entry satisfied lets the
// call through, so [{noauth}, {oauth2 with scopes}] is a tool that works
// signed out and does more signed in.
type SecurityScheme struct {
	// Type is SecurityNoAuth or SecurityOAuth2.
	Type string `json:"type"`
	// Scopes are the OAuth scopes the tool needs (oauth2 only).
	Scopes []string `json:"scopes,omitempty"`
}

// validate reports what is wrong with s.
func (s SecurityScheme) validate() error {
	switch s.Type {
	case SecurityNoAuth:
		if len(s.Scopes) > 0 {
			return fmt.Errorf("securitySchemes: a %q scheme takes no scopes", SecurityNoAuth)
		}
	case SecurityOAuth2:
		for _, sc := range s.Scopes {
			if sc == "" {
				return fmt.Errorf("securitySchemes: empty OAuth scope")
			}
		}
	default:
		return fmt.Errorf("securitySchemes: type %q: want %q or %q", s.Type, SecurityNoAuth, SecurityOAuth2)
	}
	return nil
}

// wire returns s as the plain JSON value an SDK sends.
func (s SecurityScheme) wire() map[string]any {
	m := map[string]any{"type": s.Type}
	if s.Scopes != nil {
		m["scopes"] = anySlice(s.Scopes)
	}
	return m
}

// SecuritySchemesWire returns schemes as the plain JSON array a tool's
// securitySchemes (top level or _meta mirror) holds, or an error naming the
// first invalid scheme. Adapters use it for the top-level field.
func SecuritySchemesWire(schemes []SecurityScheme) ([]any, error) {
	out := make([]any, len(schemes))
	for i, s := range schemes {
		if err := s.validate(); err != nil {
			return nil, fmt.Errorf("%w (entry %d)", err, i)
		}
		out[i] = s.wire()
	}
	return out, nil
}

// fileParams checks o.FileParams: non-empty, distinct field names.
func (o ToolOptions) fileParams() ([]any, error) {
	seen := map[string]bool{}
	for _, f := range o.FileParams {
		if f == "" {
			return nil, fmt.Errorf("openai/fileParams: empty field name")
		}
		if seen[f] {
			return nil, fmt.Errorf("openai/fileParams: field %q named twice", f)
		}
		seen[f] = true
	}
	return anySlice(o.FileParams), nil
}

// anySlice copies ss into the []any a decoded JSON array is, so a tool's
// _meta compares equal to what a client decodes.
func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
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
// invoked, openai/fileParams and the securitySchemes mirror when set. The
// URIs are the current hashed ones. A fresh map each call, as the SDKs take
// a tool's _meta.
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
		ui["visibility"] = anySlice(o.Visibility)
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
	if err := o.addOptional(m); err != nil {
		return nil, fmt.Errorf("tool meta: widget %q: %w", widget, err)
	}
	return m, nil
}

// addOptional writes the keys of o that are absent unless set:
// openai/fileParams and the securitySchemes mirror.
func (o ToolOptions) addOptional(m map[string]any) error {
	if o.FileParams != nil {
		fp, err := o.fileParams()
		if err != nil {
			return err
		}
		m["openai/fileParams"] = fp
	}
	if o.SecuritySchemes != nil {
		ss, err := SecuritySchemesWire(o.SecuritySchemes)
		if err != nil {
			return err
		}
		m["securitySchemes"] = ss
	}
	return nil
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

package assets

// ResourceMeta is the _meta object of a widget resource in both shapes hosts
// read: the MCP Apps ui object (SEP-1865 McpUiResourceMeta) and ChatGPT's
// openai/* keys (docs/manifest.md lists each key). The bundler writes one for
// the resources/list entry and one for the resources/read content item of
// every profile (Resource.ListMeta, Resource.ReadMeta); the Registry tailors
// it to each client and hands the SDKs a plain map (ListEntry.Meta,
// Contents.Meta).
//
// A field that is nil or empty is absent from the JSON, and a list that is
// present but empty is written as [], so decoding and encoding a manifest's
// _meta gives back the same JSON. Keys are written in byte order, the order
// encoding/json gives a map, which keeps manifest.json stable. Keys a type
// does not name (say, ones a newer bundler adds) are kept when decoding and
// written back, in the manifest and on the wire, so each _meta stays the
// exact object the bundler wrote.
type ResourceMeta struct {
	// WidgetCSP is _meta["openai/widgetCSP"], the ChatGPT CSP shape.
	WidgetCSP *WidgetCSP `json:"openai/widgetCSP,omitempty"`
	// WidgetDescription is _meta["openai/widgetDescription"], the summary
	// ChatGPT gives the model when the widget loads.
	WidgetDescription string `json:"openai/widgetDescription,omitempty"`
	// WidgetDomain is _meta["openai/widgetDomain"], the app's HTTPS origin.
	WidgetDomain string `json:"openai/widgetDomain,omitempty"`
	// WidgetPrefersBorder is _meta["openai/widgetPrefersBorder"]; nil is absent.
	WidgetPrefersBorder *bool `json:"openai/widgetPrefersBorder,omitempty"`
	// UI is _meta.ui, the MCP Apps shape; nil is absent.
	UI *UIMeta `json:"ui,omitempty"`

	extra map[string]any // decoded keys this type does not name
}

// UIMeta is _meta.ui of a resource (McpUiResourceMeta in SEP-1865).
type UIMeta struct {
	// CSP is _meta.ui.csp; nil is absent, and a host then applies the
	// spec's restrictive default.
	CSP *UICSP `json:"csp,omitempty"`
	// Domain is _meta.ui.domain, the dedicated sandbox origin. Its format is
	// host-dependent, which is why the Registry rewrites it per client.
	Domain string `json:"domain,omitempty"`
	// LinkTrustedDomains is _meta.ui.linkTrustedDomains, the origins a host
	// may open without its link confirmation: ext-apps' name for ChatGPT's
	// redirect_domains (docs/migrate_from_openai_apps.md), a sibling of csp.
	LinkTrustedDomains []string `json:"linkTrustedDomains,omitzero"`
	// Permissions is _meta.ui.permissions; absent when nothing is granted.
	Permissions Permissions `json:"permissions,omitzero"`
	// PrefersBorder is _meta.ui.prefersBorder; nil leaves it to the host.
	PrefersBorder *bool `json:"prefersBorder,omitempty"`

	extra map[string]any // decoded keys this type does not name
}

// UICSP is _meta.ui.csp: the origins the widget may reach, per CSP list
// (McpUiResourceCsp in SEP-1865). A nil list is absent.
type UICSP struct {
	// BaseURIDomains become base-uri.
	BaseURIDomains []string `json:"baseUriDomains,omitzero"`
	// ConnectDomains become connect-src.
	ConnectDomains []string `json:"connectDomains,omitzero"`
	// FrameDomains become frame-src.
	FrameDomains []string `json:"frameDomains,omitzero"`
	// ResourceDomains become script-, style-, img-, font- and media-src.
	ResourceDomains []string `json:"resourceDomains,omitzero"`
	// WasmUnsafeEval asks for 'wasm-unsafe-eval' in script-src. Draft
	// (csp.wasmUnsafeEval, ext-apps PR #667): hosts may ignore it.
	WasmUnsafeEval bool `json:"wasmUnsafeEval,omitzero"`

	extra map[string]any // decoded keys this type does not name
}

// WidgetCSP is _meta["openai/widgetCSP"], ChatGPT's snake_case CSP shape.
// base_uri_domains mirrors ui.csp.baseUriDomains (OpenAI's tables do not list
// it; hosts reading this shape accept it), and redirect_domains (trusted
// openExternal targets) is mirrored as ui.linkTrustedDomains. A nil list is
// absent.
type WidgetCSP struct {
	// BaseURIDomains is base_uri_domains.
	BaseURIDomains []string `json:"base_uri_domains,omitzero"`
	// ConnectDomains is connect_domains.
	ConnectDomains []string `json:"connect_domains,omitzero"`
	// FrameDomains is frame_domains.
	FrameDomains []string `json:"frame_domains,omitzero"`
	// RedirectDomains is redirect_domains.
	RedirectDomains []string `json:"redirect_domains,omitzero"`
	// ResourceDomains is resource_domains.
	ResourceDomains []string `json:"resource_domains,omitzero"`

	extra map[string]any // decoded keys this type does not name
}

// Permissions is _meta.ui.permissions: the browser permissions the widget
// asks the host to grant its iframe. In JSON each granted one is an empty
// object, {"camera":{}}, as SEP-1865 defines.
type Permissions struct {
	Camera         bool // "camera"
	ClipboardWrite bool // "clipboardWrite", Permission Policy clipboard-write
	Geolocation    bool // "geolocation"
	Microphone     bool // "microphone"
	// Tools is "tools", Permission Policy tools (WebMCP). Draft: it is in
	// ext-apps' spec.types.ts on main, not in the 2026-01-26 spec.
	Tools bool

	extra map[string]any // decoded permissions this type does not name
}

// permissionKeys pairs each permission with its JSON key, in byte order.
func (p *Permissions) permissionKeys() []struct {
	key string
	on  *bool
} {
	return []struct {
		key string
		on  *bool
	}{{"camera", &p.Camera}, {"clipboardWrite", &p.ClipboardWrite}, {"geolocation", &p.Geolocation}, {"microphone", &p.Microphone}, {"tools", &p.Tools}}
}

// wireMap returns m as the _meta map an SDK sends: the keys and values of
// m's JSON as encoding/json would decode them (objects as map[string]any,
// lists as []any), all freshly allocated, so callers may change it.
func (m *ResourceMeta) wireMap() map[string]any {
	return object(m.extra, field{"openai/widgetCSP", m.WidgetCSP.wire()}, field{"openai/widgetDescription", str(m.WidgetDescription)},
		field{"openai/widgetDomain", str(m.WidgetDomain)}, field{"openai/widgetPrefersBorder", boolean(m.WidgetPrefersBorder)},
		field{"ui", m.UI.wire()})
}

// wire returns u as a JSON object, or nil (absent) when u is nil.
func (u *UIMeta) wire() any {
	if u == nil {
		return nil
	}
	return object(u.extra, field{"csp", u.CSP.wire()}, field{"domain", str(u.Domain)}, field{"linkTrustedDomains", list(u.LinkTrustedDomains)},
		field{"permissions", u.Permissions.wire()}, field{"prefersBorder", boolean(u.PrefersBorder)})
}

// wire returns c as a JSON object, or nil (absent) when c is nil.
func (c *UICSP) wire() any {
	if c == nil {
		return nil
	}
	return object(c.extra, field{"baseUriDomains", list(c.BaseURIDomains)}, field{"connectDomains", list(c.ConnectDomains)},
		field{"frameDomains", list(c.FrameDomains)}, field{"resourceDomains", list(c.ResourceDomains)}, field{"wasmUnsafeEval", trueOnly(c.WasmUnsafeEval)})
}

// wire returns c as a JSON object, or nil (absent) when c is nil.
func (c *WidgetCSP) wire() any {
	if c == nil {
		return nil
	}
	return object(c.extra, field{"base_uri_domains", list(c.BaseURIDomains)}, field{"connect_domains", list(c.ConnectDomains)}, field{"frame_domains", list(c.FrameDomains)},
		field{"redirect_domains", list(c.RedirectDomains)}, field{"resource_domains", list(c.ResourceDomains)})
}

// wire returns the granted permissions as a JSON object of empty objects,
// or nil (absent) when none is granted.
func (p Permissions) wire() any {
	if p.none() {
		return nil
	}
	granted := map[string]any{}
	for k, v := range p.extra {
		granted[k] = cloneJSON(v)
	}
	for _, k := range p.permissionKeys() {
		if *k.on {
			granted[k.key] = map[string]any{}
		}
	}
	return granted
}

// field is one key of a JSON object and its value; a nil value is absent.
type field struct {
	key   string
	value any
}

// object returns the JSON object of extra (deep-copied) and the present
// fields.
func object(extra map[string]any, fields ...field) map[string]any {
	out := make(map[string]any, len(extra)+len(fields))
	for k, v := range extra {
		out[k] = cloneJSON(v)
	}
	for _, f := range fields {
		if f.value != nil {
			out[f.key] = f.value
		}
	}
	return out
}

// list returns l as a JSON array, or nil (absent) when l is nil.
func list(l []string) any {
	if l == nil {
		return nil
	}
	a := make([]any, len(l))
	for i, s := range l {
		a[i] = s
	}
	return a
}

// str returns s, or nil (absent) when it is empty.
func str(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// trueOnly returns true, or nil (absent) when b is false.
func trueOnly(b bool) any {
	if !b {
		return nil
	}
	return true
}

// boolean returns *b, or nil (absent) when b is nil.
func boolean(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

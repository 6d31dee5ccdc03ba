package assets

import (
	"encoding/json"
	"fmt"
)

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
// encoding/json gives a map, which keeps manifest.json stable.
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
}

// UIMeta is _meta.ui of a resource (McpUiResourceMeta in SEP-1865).
type UIMeta struct {
	// CSP is _meta.ui.csp; nil is absent, and a host then applies the
	// spec's restrictive default.
	CSP *UICSP `json:"csp,omitempty"`
	// Domain is _meta.ui.domain, the dedicated sandbox origin. Its format is
	// host-dependent, which is why the Registry rewrites it per client.
	Domain string `json:"domain,omitempty"`
	// Permissions is _meta.ui.permissions; absent when nothing is granted.
	Permissions Permissions `json:"permissions,omitzero"`
	// PrefersBorder is _meta.ui.prefersBorder; nil leaves it to the host.
	PrefersBorder *bool `json:"prefersBorder,omitempty"`
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
}

// WidgetCSP is _meta["openai/widgetCSP"], ChatGPT's snake_case CSP shape. It
// has no base-uri list, and redirect_domains (trusted openExternal targets)
// has no ui.csp equivalent. A nil list is absent.
type WidgetCSP struct {
	// ConnectDomains is connect_domains.
	ConnectDomains []string `json:"connect_domains,omitzero"`
	// FrameDomains is frame_domains.
	FrameDomains []string `json:"frame_domains,omitzero"`
	// RedirectDomains is redirect_domains.
	RedirectDomains []string `json:"redirect_domains,omitzero"`
	// ResourceDomains is resource_domains.
	ResourceDomains []string `json:"resource_domains,omitzero"`
}

// Permissions is _meta.ui.permissions: the browser permissions the widget
// asks the host to grant its iframe. In JSON each granted one is an empty
// object, {"camera":{}}, as SEP-1865 defines.
type Permissions struct {
	Camera         bool // "camera"
	ClipboardWrite bool // "clipboardWrite", Permission Policy clipboard-write
	Geolocation    bool // "geolocation"
	Microphone     bool // "microphone"
}

// permissionKeys pairs each permission with its JSON key, in byte order.
func (p *Permissions) permissionKeys() []struct {
	key string
	on  *bool
} {
	return []struct {
		key string
		on  *bool
	}{{"camera", &p.Camera}, {"clipboardWrite", &p.ClipboardWrite}, {"geolocation", &p.Geolocation}, {"microphone", &p.Microphone}}
}

// MarshalJSON writes the granted permissions as empty objects.
func (p Permissions) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	for _, k := range p.permissionKeys() {
		if *k.on {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, `"`+k.key+`":{}`...)
		}
	}
	return append(out, '}'), nil
}

// UnmarshalJSON reads an object whose keys name granted permissions; keys it
// does not know are ignored, as a host would.
func (p *Permissions) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("permissions: %w", err)
	}
	*p = Permissions{}
	for _, k := range p.permissionKeys() {
		_, *k.on = m[k.key]
	}
	return nil
}

// wireMap returns m as the _meta map an SDK sends: the keys and values of
// m's JSON as encoding/json would decode them (objects as map[string]any,
// lists as []any), all freshly allocated, so callers may change it.
func (m *ResourceMeta) wireMap() map[string]any {
	out := map[string]any{}
	if m.WidgetCSP != nil {
		out["openai/widgetCSP"] = lists(map[string][]string{
			"connect_domains": m.WidgetCSP.ConnectDomains, "frame_domains": m.WidgetCSP.FrameDomains,
			"redirect_domains": m.WidgetCSP.RedirectDomains, "resource_domains": m.WidgetCSP.ResourceDomains,
		})
	}
	putString(out, "openai/widgetDescription", m.WidgetDescription)
	putString(out, "openai/widgetDomain", m.WidgetDomain)
	putBool(out, "openai/widgetPrefersBorder", m.WidgetPrefersBorder)
	if m.UI != nil {
		out["ui"] = m.UI.wireMap()
	}
	return out
}

func (u *UIMeta) wireMap() map[string]any {
	out := map[string]any{}
	if u.CSP != nil {
		out["csp"] = lists(map[string][]string{
			"baseUriDomains": u.CSP.BaseURIDomains, "connectDomains": u.CSP.ConnectDomains,
			"frameDomains": u.CSP.FrameDomains, "resourceDomains": u.CSP.ResourceDomains,
		})
	}
	putString(out, "domain", u.Domain)
	if u.Permissions != (Permissions{}) {
		perms := map[string]any{}
		for _, k := range u.Permissions.permissionKeys() {
			if *k.on {
				perms[k.key] = map[string]any{}
			}
		}
		out["permissions"] = perms
	}
	putBool(out, "prefersBorder", u.PrefersBorder)
	return out
}

// lists converts the non-nil lists of m to []any under their keys.
func lists(m map[string][]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, l := range m {
		if l == nil {
			continue
		}
		a := make([]any, len(l))
		for i, s := range l {
			a[i] = s
		}
		out[k] = a
	}
	return out
}

func putString(m map[string]any, key, s string) {
	if s != "" {
		m[key] = s
	}
}

func putBool(m map[string]any, key string, b *bool) {
	if b != nil {
		m[key] = *b
	}
}

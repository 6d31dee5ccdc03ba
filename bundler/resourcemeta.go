package bundler

import (
	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
)

// resourceMeta builds the _meta object a host reads for a widget resource:
// the MCP Apps shape (ui.*) and the ChatGPT shape (openai/*), since hosts
// differ in which they read. Both shapes come from the one policy and the one
// widget.json, so they cannot disagree: baseUriDomains is mirrored as
// base_uri_domains, redirectDomains as ui.linkTrustedDomains (ext-apps' name
// for it), and the draft csp.wasmUnsafeEval and permissions.tools appear in
// the ui shape only.
func resourceMeta(w *widget, pol *cspgen.Policy) assets.ResourceMeta {
	prefersBorder := true
	if w.Config.PrefersBorder != nil {
		prefersBorder = *w.Config.PrefersBorder
	}
	ui, oa := pol.UIMeta(), pol.OpenAIMeta()
	p := w.Config.Permissions
	return assets.ResourceMeta{
		WidgetCSP:           &oa,
		WidgetDescription:   w.Config.WidgetDescription,
		WidgetDomain:        w.Config.Domain,
		WidgetPrefersBorder: &prefersBorder,
		UI: &assets.UIMeta{
			CSP:                &ui,
			Domain:             w.Config.Domain,
			LinkTrustedDomains: oa.RedirectDomains,
			Permissions:        assets.Permissions{Camera: p.Camera, ClipboardWrite: p.ClipboardWrite, Geolocation: p.Geolocation, Microphone: p.Microphone, Tools: p.Tools},
			PrefersBorder:      &prefersBorder,
		},
	}
}

package bundler

import (
	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
)

// resourceMeta builds the _meta object a host reads for a widget resource:
// the MCP Apps shape (ui.*) and the ChatGPT shape (openai/*), since hosts
// differ in which they read. Both shapes come from the one policy and the one
// widget.json, so they cannot disagree.
func resourceMeta(w *widget, pol *cspgen.Policy) assets.ResourceMeta {
	prefersBorder := true
	if w.Config.PrefersBorder != nil {
		prefersBorder = *w.Config.PrefersBorder
	}
	ui, oa := pol.UIMeta(), pol.OpenAIMeta()
	p := w.Config.Permissions
	return assets.ResourceMeta{
		WidgetCSP: &assets.WidgetCSP{
			ConnectDomains:  oa.ConnectDomains,
			FrameDomains:    oa.FrameDomains,
			RedirectDomains: oa.RedirectDomains,
			ResourceDomains: oa.ResourceDomains,
		},
		WidgetDescription:   w.Config.WidgetDescription,
		WidgetDomain:        w.Config.Domain,
		WidgetPrefersBorder: &prefersBorder,
		UI: &assets.UIMeta{
			CSP: &assets.UICSP{
				BaseURIDomains:  ui.BaseURIDomains,
				ConnectDomains:  ui.ConnectDomains,
				FrameDomains:    ui.FrameDomains,
				ResourceDomains: ui.ResourceDomains,
			},
			Domain:        w.Config.Domain,
			Permissions:   assets.Permissions{Camera: p.Camera, ClipboardWrite: p.ClipboardWrite, Geolocation: p.Geolocation, Microphone: p.Microphone},
			PrefersBorder: &prefersBorder,
		},
	}
}

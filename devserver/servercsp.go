package devserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
)

// cspKeys are the _meta keys that carry a CSP for a MIME type, in the order
// a host reads them: ChatGPT (skybridge) reads openai/widgetCSP and also
// understands ui.csp; an MCP Apps host reads ui.csp only.
func cspKeys(mime string) []string {
	if strings.EqualFold(strings.ReplaceAll(mime, " ", ""), assets.MIMETypeSkybridge) {
		return []string{"openai/widgetCSP", "ui.csp"}
	}
	return []string{"ui.csp"}
}

// cspValue is the CSP object under key ("ui.csp" is _meta.ui.csp) or nil.
func cspValue(meta mcp.Meta, key string) any {
	if key == "ui.csp" {
		ui, _ := meta["ui"].(map[string]any)
		return ui["csp"]
	}
	return meta[key]
}

// hasCSP reports whether meta declares a CSP a host of mime reads.
func hasCSP(mime string, meta mcp.Meta) bool {
	for _, k := range cspKeys(mime) {
		if cspValue(meta, k) != nil {
			return true
		}
	}
	return false
}

// openaiCSP is the openai/widgetCSP object (snake_case): assets' wire type
// without its key-keeping JSON methods, as only the lists are read here.
type openaiCSP assets.WidgetCSP

// serverWidgetCSP is the CSP header a host builds (with cspgen, as for
// local widgets) from the first of metas that declares a CSP for mime; the
// spec's default CSP (no domains) when none does.
func serverWidgetCSP(mime string, metas ...mcp.Meta) (string, error) {
	for _, meta := range metas {
		for _, key := range cspKeys(mime) {
			v := cspValue(meta, key)
			if v == nil {
				continue
			}
			d, err := decodeCSP(key, v)
			if err != nil {
				return "", err
			}
			pol, err := cspgen.New(d)
			if err != nil {
				return "", fmt.Errorf("_meta %s: %w", key, err)
			}
			return pol.Header(), nil
		}
	}
	pol, _ := cspgen.New(cspgen.Domains{})
	return pol.Header(), nil
}

// decodeCSP reads a CSP object of either shape into cspgen.Domains.
func decodeCSP(key string, v any) (cspgen.Domains, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return cspgen.Domains{}, fmt.Errorf("_meta %s: %w", key, err)
	}
	if key == "ui.csp" {
		var d cspgen.Domains
		if err := json.Unmarshal(raw, &d); err != nil {
			return d, fmt.Errorf("_meta %s is not a CSP object (connectDomains, resourceDomains, frameDomains, baseUriDomains lists): %w", key, err)
		}
		return d, nil
	}
	var o openaiCSP
	if err := json.Unmarshal(raw, &o); err != nil {
		return cspgen.Domains{}, fmt.Errorf("_meta %s is not a CSP object (connect_domains, resource_domains, frame_domains lists): %w", key, err)
	}
	return cspgen.Domains{Connect: o.ConnectDomains, Resource: o.ResourceDomains, Frame: o.FrameDomains, Redirect: o.RedirectDomains, BaseURI: o.BaseURIDomains}, nil
}

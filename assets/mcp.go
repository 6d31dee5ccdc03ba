package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/widgetd/widgetd/internal/publicurl"
)

// ExtensionID is the MCP capability extension key servers advertise (and
// hosts send) for MCP Apps.
const ExtensionID = "io.modelcontextprotocol/ui"

// Host is the family of MCP host a response is tailored for.
type Host int

// Host values.
const (
	// HostAuto derives the host from Client.Name.
	HostAuto Host = iota
	// HostGeneric sends the manifest metadata unchanged.
	HostGeneric
	// HostClaude replaces ui.domain with the Claude hash domain derived from
	// the connector URL, or drops it when that URL is unknown, because Claude
	// refuses to render any other value.
	HostClaude
	// HostChatGPT keeps openai/widgetDomain (the declared HTTPS origin) and
	// mirrors it into ui.domain.
	HostChatGPT
)

// String returns the host family's name.
func (h Host) String() string {
	switch h {
	case HostGeneric:
		return "generic"
	case HostClaude:
		return "claude"
	case HostChatGPT:
		return "chatgpt"
	}
	return "auto"
}

// HostFromClientName maps the clientInfo.name a client sends in initialize
// ("claude-ai", "openai-mcp", ...) to its host family.
func HostFromClientName(name string) Host {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "claude"):
		return HostClaude
	case strings.Contains(n, "openai"), strings.Contains(n, "chatgpt"):
		return HostChatGPT
	}
	return HostGeneric
}

// Client describes who a resources/list or resources/read answer is for, so
// one server satisfies hosts with incompatible rules. The zero value gives
// the manifest metadata unchanged.
type Client struct {
	// Name is the clientInfo.name from initialize.
	Name string
	// Host forces the host family; HostAuto derives it from Name.
	Host Host
	// ConnectorURL is the public URL of this MCP server as the host connects
	// to it (Claude's ui.domain derives from it). Empty: the WithConnectorURL
	// default.
	ConnectorURL string
	// AssetBase is the base URL the dist/ files are reachable at for this
	// request (see BaseURL). It replaces the manifest's PublicURL in the HTML
	// and in the CSP resourceDomains. Empty: the WithAssetBase default, else
	// the manifest's PublicURL unchanged.
	AssetBase string
}

func (c Client) host() Host {
	if c.Host != HostAuto {
		return c.Host
	}
	return HostFromClientName(c.Name)
}

// ClaudeDomain returns the only ui.domain Claude accepts for a connector:
// the first 32 hex digits of sha256(connectorURL) under claudemcpcontent.com.
func ClaudeDomain(connectorURL string) string {
	sum := sha256.Sum256([]byte(connectorURL))
	return hex.EncodeToString(sum[:])[:32] + ".claudemcpcontent.com"
}

// ListEntry is one resources/list entry.
type ListEntry struct {
	// URI is the resource's current hashed ui:// URI.
	URI string
	// Name is the widget name, with ".skybridge" for the skybridge profile.
	Name string
	// Title and Description are the widget's, from widget.json.
	Title       string
	Description string
	// MIMEType is MIMETypeMCPApp or MIMETypeSkybridge.
	MIMEType string
	// Meta is the entry's _meta, both shapes (ui.* and openai/*), as the
	// plain map the MCP SDKs take (Resource.ListMeta is the typed form). A
	// fresh copy: callers may modify it.
	Meta map[string]any
}

// Contents is the single content item of a resources/read result.
type Contents struct {
	// URI echoes the URI that was read.
	URI string
	// MIMEType is the profile's MIME type.
	MIMEType string
	// Text is the HTML document, rebased to the client's asset base.
	Text string
	// Meta is the item's _meta, both shapes, as a plain map (Resource.ReadMeta
	// is the typed form); empty for a retained URI whose widget or profile
	// the current build no longer has. A fresh copy.
	Meta map[string]any
}

// Resources returns the resources/list entries of the current build: per
// widget (sorted by name) one entry per profile, under its hashed URI, with
// the list _meta tailored for c. Aliases and retained URIs are not listed but
// read (see Read).
func (r *Registry) Resources(c Client) []ListEntry {
	out := make([]ListEntry, 0, 2*len(r.man.Widgets))
	for _, name := range r.Widgets() {
		w := r.widgets[name]
		for i := range w.Profiles {
			p := &w.Profiles[i]
			out = append(out, ListEntry{
				URI:         p.URI,
				Name:        listName(w.Name, p.Profile),
				Title:       w.Title,
				Description: w.Description,
				MIMEType:    p.MIMEType,
				Meta:        r.tailorMeta(p.ListMeta, c),
			})
		}
	}
	return out
}

func listName(widget, profile string) string {
	if profile == ProfileSkybridge {
		return widget + ".skybridge"
	}
	return widget
}

// Read answers resources/read for uri: the current hashed URI, the unhashed
// alias (current content) or a retained build's URI (that build's HTML). The
// content item echoes uri and carries the read _meta tailored for c. An
// unknown URI gives an error wrapping ErrNotFound. In dev mode (WithDev) the
// text is the dev shell document instead, see WithDev.
func (r *Registry) Read(uri string, c Client) (Contents, error) {
	res, ok := r.uris[uri]
	if !ok {
		return Contents{}, fmt.Errorf("resource %q: %w", uri, ErrNotFound)
	}
	if r.devURL != "" {
		if c, ok := r.devRead(uri, res, c); ok {
			return c, nil
		}
	}
	meta := map[string]any{}
	if res.res != nil {
		meta = r.tailorMeta(res.res.ReadMeta, c)
	}
	return Contents{
		URI:      uri,
		MIMEType: res.mimeType,
		Text:     r.rebase(string(res.html.identity.body), c),
		Meta:     meta,
	}, nil
}

// assetBase returns the base URL that replaces PublicURL for c, or "".
func (r *Registry) assetBase(c Client) string {
	base := strings.TrimRight(c.AssetBase, "/")
	if base == "" {
		base = r.opts.assetBase
	}
	pub := strings.TrimRight(r.man.PublicURL, "/")
	if base == "" || pub == "" || base == pub {
		return ""
	}
	return base
}

// rebase rewrites references to the manifest's PublicURL in html to c's asset
// base. Only "<PublicURL>/" prefixes are replaced, so a longer host name that
// merely starts with the same text is left alone.
func (r *Registry) rebase(html string, c Client) string {
	base := r.assetBase(c)
	if base == "" {
		return html
	}
	pub := strings.TrimRight(r.man.PublicURL, "/")
	return strings.ReplaceAll(html, pub+"/", base+"/")
}

// tailorMeta returns m adapted for c as the _meta map an SDK sends: ui.domain
// per host family, and the CSP resourceDomains following the asset base. m
// is the registry's copy and is not changed.
func (r *Registry) tailorMeta(m ResourceMeta, c Client) map[string]any {
	if m.UI != nil {
		ui := *m.UI
		m.UI = &ui
		r.tailorDomain(&m, c)
	}
	if oldOrigin, newOrigin := r.rebasedOrigins(c); newOrigin != "" {
		if m.UI != nil && m.UI.CSP != nil {
			csp := *m.UI.CSP
			csp.ResourceDomains = replaceOrigin(csp.ResourceDomains, oldOrigin, newOrigin)
			m.UI.CSP = &csp
		}
		if m.WidgetCSP != nil {
			csp := *m.WidgetCSP
			csp.ResourceDomains = replaceOrigin(csp.ResourceDomains, oldOrigin, newOrigin)
			m.WidgetCSP = &csp
		}
	}
	return m.wireMap()
}

// tailorDomain sets m.UI.Domain (m.UI is a copy) to what c's host accepts:
// Claude's hash domain for the connector URL, or none when that URL is
// unknown; for ChatGPT, the declared openai/widgetDomain.
func (r *Registry) tailorDomain(m *ResourceMeta, c Client) {
	switch c.host() {
	case HostClaude:
		conn := c.ConnectorURL
		if conn == "" {
			conn = r.opts.connectorURL
		}
		m.UI.Domain = ""
		if conn != "" {
			m.UI.Domain = ClaudeDomain(conn)
		}
	case HostChatGPT:
		if m.WidgetDomain != "" {
			m.UI.Domain = m.WidgetDomain
		}
	}
}

// rebasedOrigins returns the origin of the manifest's PublicURL and the one
// of c's asset base when they differ, else "", "".
func (r *Registry) rebasedOrigins(c Client) (oldOrigin, newOrigin string) {
	base := r.assetBase(c)
	if base == "" {
		return "", ""
	}
	oldOrigin, newOrigin = publicurl.Origin(r.man.PublicURL), publicurl.Origin(base)
	if oldOrigin == "" || newOrigin == "" || oldOrigin == newOrigin {
		return "", ""
	}
	return oldOrigin, newOrigin
}

// replaceOrigin returns list with old replaced by new, new added when old
// was absent, and no duplicates of new. list is not changed.
func replaceOrigin(list []string, old, new string) []string {
	out := make([]string, 0, len(list)+1)
	seen := false
	for _, s := range list {
		if s == old {
			s = new
		}
		if s == new {
			if seen {
				continue
			}
			seen = true
		}
		out = append(out, s)
	}
	if !seen {
		out = append(out, new)
	}
	return out
}

// Package cspgen owns widget Content Security Policy: it turns the domains a
// widget declares into a validated Policy, and from a Policy writes the CSP
// header value exactly as the MCP Apps spec constructs it, the _meta.ui.csp
// object (camelCase) and the ChatGPT openai/widgetCSP object (snake_case).
//
// It knows nothing of files or HTTP.
package cspgen

import (
	"strconv"
	"strings"
)

// Domains are the lists a widget declares, as written by its author.
type Domains struct {
	// Connect origins feed connect-src (fetch, XHR, WebSocket, EventSource).
	Connect []string `json:"connectDomains,omitempty"`
	// Resource origins feed script-src, style-src, img-src, font-src, media-src.
	Resource []string `json:"resourceDomains,omitempty"`
	// Frame origins feed frame-src; empty means frame-src 'none'.
	Frame []string `json:"frameDomains,omitempty"`
	// BaseURI origins feed base-uri; empty means base-uri 'self'.
	BaseURI []string `json:"baseUriDomains,omitempty"`
	// Redirect origins are ChatGPT-only trusted openExternal targets.
	Redirect []string `json:"redirectDomains,omitempty"`
}

// Policy is a validated, normalised, de-duplicated and sorted set of Domains.
// The zero value allows nothing beyond the spec's fixed sources.
type Policy struct {
	d Domains
}

// New validates d and returns its Policy. STUB: replaced by the real validator.
func New(d Domains) (*Policy, error) {
	return &Policy{d: d}, nil
}

// Domains returns a copy of the policy's normalised lists.
func (p *Policy) Domains() Domains { return p.d }

// Header returns the CSP header value. STUB.
func (p *Policy) Header() string {
	return "default-src 'none'; script-src 'self' 'unsafe-inline' " + strings.Join(p.d.Resource, " ")
}

// UICSP is the _meta.ui.csp object of MCP Apps.
type UICSP struct {
	ConnectDomains  []string `json:"connectDomains"`
	ResourceDomains []string `json:"resourceDomains"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// WidgetCSP is the _meta["openai/widgetCSP"] object of ChatGPT Apps.
type WidgetCSP struct {
	ConnectDomains  []string `json:"connect_domains"`
	ResourceDomains []string `json:"resource_domains"`
	FrameDomains    []string `json:"frame_domains,omitempty"`
	RedirectDomains []string `json:"redirect_domains,omitempty"`
}

// UIMeta returns the _meta.ui.csp object. STUB.
func (p *Policy) UIMeta() UICSP {
	return UICSP{ConnectDomains: p.d.Connect, ResourceDomains: p.d.Resource}
}

// OpenAIMeta returns the openai/widgetCSP object. STUB.
func (p *Policy) OpenAIMeta() WidgetCSP {
	return WidgetCSP{ConnectDomains: p.d.Connect, ResourceDomains: p.d.Resource}
}

// With returns a new Policy with extra's entries added. STUB.
func (p *Policy) With(extra Domains) (*Policy, error) {
	d := p.d
	d.Resource = append(append([]string{}, d.Resource...), extra.Resource...)
	d.Connect = append(append([]string{}, d.Connect...), extra.Connect...)
	return New(d)
}

// Error reports one invalid declared entry.
type Error struct {
	// Field is the widget.json name of the list: "connectDomains",
	// "resourceDomains", "frameDomains", "baseUriDomains" or "redirectDomains".
	Field string
	// Index is the entry's position in that list.
	Index int
	// Value is the entry as declared.
	Value string
	// Reason says what is wrong and how to fix it.
	Reason string
}

func (e *Error) Error() string {
	return e.Field + "[" + itoa(e.Index) + "] " + quote(e.Value) + ": " + e.Reason
}

func itoa(i int) string { return strconv.Itoa(i) }

func quote(s string) string { return strconv.Quote(s) }

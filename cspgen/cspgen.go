// Package cspgen owns widget Content Security Policy. It turns the domains a
// widget declares into a validated Policy, and from a Policy writes the CSP
// header value exactly as the MCP Apps spec constructs it, the _meta.ui.csp
// object (camelCase) and the ChatGPT openai/widgetCSP object (snake_case),
// both as the wire types of package assets, which owns the _meta JSON.
// It also answers, for `widgetd check`, whether a URL found in a bundle would
// load under that spec-constructed CSP (Policy.Allows).
//
// Declared entries are origins only (https://host[:port], wss:// for
// connections, http:// and ws:// for localhost during development). Anything
// that could widen or inject into the policy (keywords, quotes, ';', ',',
// whitespace, control characters, bare '*', paths, credentials) is rejected
// with an *Error that names the list, the index and the fix. Accepted entries
// are normalised, de-duplicated and sorted, so all output is deterministic.
//
// It knows nothing of files or HTTP.
package cspgen

import (
	"slices"
	"strconv"
)

// Field names of the declared lists, as written in widget.json. They appear in
// Error.Field so callers can point at the offending entry.
const (
	FieldConnect  = "connectDomains"
	FieldResource = "resourceDomains"
	FieldFrame    = "frameDomains"
	FieldBaseURI  = "baseUriDomains"
	FieldRedirect = "redirectDomains"
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
	// WasmUnsafeEval adds 'wasm-unsafe-eval' to script-src, so WebAssembly
	// can compile. It is a draft of MCP Apps (csp.wasmUnsafeEval,
	// ext-apps PR #667), not in the 2026-01-26 spec: hosts may ignore it.
	WasmUnsafeEval bool `json:"wasmUnsafeEval,omitempty"`
}

// clone returns a deep copy of d, with empty lists as nil.
func (d Domains) clone() Domains {
	return Domains{
		Connect:  cloneList(d.Connect),
		Resource: cloneList(d.Resource),
		Frame:    cloneList(d.Frame),
		BaseURI:  cloneList(d.BaseURI),
		Redirect: cloneList(d.Redirect),

		WasmUnsafeEval: d.WasmUnsafeEval,
	}
}

func cloneList(l []string) []string {
	if len(l) == 0 {
		return nil
	}
	return slices.Clone(l)
}

// Policy is a validated, normalised, de-duplicated and sorted set of Domains.
// A Policy is immutable and safe for concurrent use. The zero value (and a nil
// *Policy) allows nothing beyond the spec's fixed sources.
type Policy struct {
	d      Domains
	header string // cached Header(); "" for the zero value
}

// New validates d and returns its Policy. Every entry must be an origin (see
// the package documentation); the first invalid entry, in the order connect,
// resource, frame, baseUri, redirect, is reported as an *Error. Accepted
// entries are lowercased, stripped of default ports and of a lone trailing
// '/', de-duplicated and sorted.
func New(d Domains) (*Policy, error) {
	var p Policy
	var err error
	if p.d.Connect, err = normaliseList(FieldConnect, d.Connect); err != nil {
		return nil, err
	}
	if p.d.Resource, err = normaliseList(FieldResource, d.Resource); err != nil {
		return nil, err
	}
	if p.d.Frame, err = normaliseList(FieldFrame, d.Frame); err != nil {
		return nil, err
	}
	if p.d.BaseURI, err = normaliseList(FieldBaseURI, d.BaseURI); err != nil {
		return nil, err
	}
	if p.d.Redirect, err = normaliseList(FieldRedirect, d.Redirect); err != nil {
		return nil, err
	}
	p.d.WasmUnsafeEval = d.WasmUnsafeEval
	p.header = buildHeader(p.d)
	return &p, nil
}

// normaliseList validates and normalises one declared list.
func normaliseList(field string, in []string) ([]string, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make([]string, 0, len(in))
	for i, s := range in {
		n, reason := normaliseEntry(field, s)
		if reason != "" {
			return nil, &Error{Field: field, Index: i, Value: s, Reason: reason}
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// domains returns the policy's lists, treating nil as the empty policy.
func (p *Policy) domains() *Domains {
	if p == nil {
		return &Domains{}
	}
	return &p.d
}

// Domains returns a copy of the policy's normalised lists. Empty lists are nil.
func (p *Policy) Domains() Domains { return p.domains().clone() }

// With returns a new Policy with extra's entries added to p's. It is how the
// bundler adds the public URL origin to resourceDomains in external builds and
// the dev server origin in dev. extra is validated on its own first, so an
// *Error's Index points into extra, not into the merged list.
func (p *Policy) With(extra Domains) (*Policy, error) {
	e, err := New(extra)
	if err != nil {
		return nil, err
	}
	base := p.domains()
	merged := Domains{
		Connect:  slices.Concat(base.Connect, e.d.Connect),
		Resource: slices.Concat(base.Resource, e.d.Resource),
		Frame:    slices.Concat(base.Frame, e.d.Frame),
		BaseURI:  slices.Concat(base.BaseURI, e.d.BaseURI),
		Redirect: slices.Concat(base.Redirect, e.d.Redirect),

		WasmUnsafeEval: base.WasmUnsafeEval || e.d.WasmUnsafeEval,
	}
	return New(merged)
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

// Error formats the entry as field[index] "value": reason. The value is
// Go-quoted, so control characters in it are shown escaped, never raw.
func (e *Error) Error() string {
	return e.Field + "[" + strconv.Itoa(e.Index) + "] " + strconv.Quote(e.Value) + ": " + e.Reason
}

package cspgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/widgetd/widgetd/assets"
)

// HeaderDirective is one directive of a CSP header value: its name and its
// source expressions, in order.
type HeaderDirective struct {
	// Name is the lowercase directive name, such as "script-src".
	Name string
	// Sources are the directive's source expressions, such as "'self'".
	Sources []string
}

// specDirective is one line of the MCP Apps spec construction (SEP-1865,
// Security Implications §4): fixed sources, then a declared list, and a
// fallback when the list is empty.
type specDirective struct {
	name     string
	fixed    []string
	field    string // declared list appended after fixed; "" for none
	fallback string // used when the declared list is empty; "" for none
	wasm     bool   // 'wasm-unsafe-eval' follows fixed when Domains.WasmUnsafeEval
}

// specDirectives is the spec construction, in the spec's order.
var specDirectives = [...]specDirective{
	{name: "default-src", fixed: []string{"'none'"}},
	{name: "script-src", fixed: []string{"'self'", "'unsafe-inline'"}, field: FieldResource, wasm: true},
	{name: "style-src", fixed: []string{"'self'", "'unsafe-inline'"}, field: FieldResource},
	{name: "connect-src", fixed: []string{"'self'"}, field: FieldConnect},
	{name: "img-src", fixed: []string{"'self'", "data:"}, field: FieldResource},
	{name: "font-src", fixed: []string{"'self'"}, field: FieldResource},
	{name: "media-src", fixed: []string{"'self'", "data:"}, field: FieldResource},
	{name: "frame-src", field: FieldFrame, fallback: "'none'"},
	{name: "object-src", fixed: []string{"'none'"}},
	{name: "base-uri", field: FieldBaseURI, fallback: "'self'"},
}

// list returns the declared list of d named field.
func (d *Domains) list(field string) []string {
	if l := d.listOf(field); l != nil {
		return *l
	}
	return nil
}

// listOf returns where d holds the list named field, nil for another name.
func (d *Domains) listOf(field string) *[]string {
	switch field {
	case FieldConnect:
		return &d.Connect
	case FieldResource:
		return &d.Resource
	case FieldFrame:
		return &d.Frame
	case FieldBaseURI:
		return &d.BaseURI
	case FieldRedirect:
		return &d.Redirect
	}
	return nil
}

// sources returns the source expressions of sd for the lists in d.
func (sd *specDirective) sources(d *Domains) []string {
	var l []string
	if sd.field != "" {
		l = d.list(sd.field)
	}
	out := make([]string, 0, len(sd.fixed)+len(l)+1)
	out = append(out, sd.fixed...)
	if sd.wasm && d.WasmUnsafeEval {
		out = append(out, "'wasm-unsafe-eval'")
	}
	out = append(out, l...)
	if len(l) == 0 && sd.fallback != "" {
		out = append(out, sd.fallback)
	}
	return out
}

// Directives returns the policy's CSP as the spec constructs it, one entry per
// directive in the spec's order. Header is these joined with "; ".
func (p *Policy) Directives() []HeaderDirective {
	d := p.domains()
	out := make([]HeaderDirective, len(specDirectives))
	for i := range specDirectives {
		out[i] = HeaderDirective{Name: specDirectives[i].name, Sources: specDirectives[i].sources(d)}
	}
	return out
}

// buildHeader writes the header value for d.
func buildHeader(d Domains) string {
	var b strings.Builder
	for i := range specDirectives {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(specDirectives[i].name)
		for _, s := range specDirectives[i].sources(&d) {
			b.WriteByte(' ')
			b.WriteString(s)
		}
	}
	return b.String()
}

// Header returns the Content-Security-Policy header value exactly as the MCP
// Apps spec constructs it from _meta.ui.csp, directives joined with "; ":
//
//	default-src 'none'; script-src 'self' 'unsafe-inline' <resource...>;
//	style-src 'self' 'unsafe-inline' <resource...>; connect-src 'self' <connect...>;
//	img-src 'self' data: <resource...>; font-src 'self' <resource...>;
//	media-src 'self' data: <resource...>; frame-src <frame...>|'none';
//	object-src 'none'; base-uri <baseUri...>|'self'
//
// It is what the dev preview serves and what a spec-following host enforces.
func (p *Policy) Header() string {
	if p == nil || p.header == "" {
		return buildHeader(*p.domains())
	}
	return p.header
}

// nonNil returns l, or an empty list when l is nil: the wire types write a
// nil list as absent and an empty one as [], so this is what makes a list
// always present.
func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// UIMeta returns the _meta.ui.csp object of MCP Apps. Its JSON always has
// connectDomains and resourceDomains (empty arrays when nothing is declared),
// since hosts read them as required lists; frameDomains and baseUriDomains are
// absent when empty, and wasmUnsafeEval is there only when declared. The
// slices are copies.
func (p *Policy) UIMeta() assets.UICSP {
	d := p.domains()
	return assets.UICSP{
		ConnectDomains:  nonNil(cloneList(d.Connect)),
		ResourceDomains: nonNil(cloneList(d.Resource)),
		FrameDomains:    cloneList(d.Frame),
		BaseURIDomains:  cloneList(d.BaseURI),
		WasmUnsafeEval:  d.WasmUnsafeEval,
	}
}

// OpenAIMeta returns the _meta["openai/widgetCSP"] object of ChatGPT Apps.
// Its JSON always has connect_domains and resource_domains, as UIMeta's;
// frame_domains, redirect_domains and base_uri_domains (baseUriDomains
// mirrored, which OpenAI's tables do not list but hosts reading this shape
// accept) are absent when empty. The slices are copies.
func (p *Policy) OpenAIMeta() assets.WidgetCSP {
	d := p.domains()
	return assets.WidgetCSP{
		ConnectDomains:  nonNil(cloneList(d.Connect)),
		ResourceDomains: nonNil(cloneList(d.Resource)),
		FrameDomains:    cloneList(d.Frame),
		RedirectDomains: cloneList(d.Redirect),
		BaseURIDomains:  cloneList(d.BaseURI),
	}
}

// isASCIIWhitespace reports CSP's ASCII whitespace: tab, LF, FF, CR, space.
func isASCIIWhitespace(c byte) bool {
	return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// parseDirectives parses a serialized CSP (one policy, as in a header value)
// into its directives, following CSP3 "parse a serialized CSP": directives are
// split on ';', tokens on ASCII whitespace, names are lowercased. It is
// stricter than a browser: a value with a control character, a non-ASCII
// byte, a ',' (which would start a second policy), an invalid directive name
// or a repeated directive is an error rather than silently skipped.
func parseDirectives(h string) ([]HeaderDirective, error) {
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c == '\t' || c == ' ':
		case c < 0x20 || c == 0x7f:
			return nil, fmt.Errorf("csp: control character %q at byte %d", c, i)
		case c >= 0x80:
			return nil, fmt.Errorf("csp: non-ASCII byte at %d", i)
		case c == ',':
			return nil, fmt.Errorf("csp: ',' at byte %d would start a second policy", i)
		}
	}
	var out []HeaderDirective
	seen := map[string]bool{}
	for part := range strings.SplitSeq(h, ";") {
		tokens := strings.FieldsFunc(part, func(r rune) bool { return r < 0x80 && isASCIIWhitespace(byte(r)) })
		if len(tokens) == 0 {
			continue
		}
		name := strings.ToLower(tokens[0])
		for i := 0; i < len(name); i++ {
			if c := name[i]; !isAlpha(c) && !isDigit(c) && c != '-' {
				return nil, fmt.Errorf("csp: invalid directive name %q", tokens[0])
			}
		}
		if seen[name] {
			return nil, fmt.Errorf("csp: directive %q repeated", name)
		}
		seen[name] = true
		out = append(out, HeaderDirective{Name: name, Sources: tokens[1:]})
	}
	return out, nil
}

// parseHeader is the inverse of Policy.Header: it reads a CSP header value
// built by the spec construction back into a Policy (without redirect
// domains, which a CSP does not carry). Directive order and whitespace may
// vary and keywords are case-insensitive, but every one of the ten spec
// directives must be present with exactly its fixed sources, no other
// directive may appear, and the five resource directives must list the same
// origins. The origins are validated as by New.
func parseHeader(h string) (*Policy, error) {
	ds, err := parseDirectives(h)
	if err != nil {
		return nil, err
	}
	byName := make(map[string][]string, len(ds))
	for _, d := range ds {
		byName[d.Name] = d.Sources
	}
	var got Domains
	var resourceFrom string
	for i := range specDirectives {
		sd := &specDirectives[i]
		srcs, ok := byName[sd.name]
		if !ok {
			return nil, fmt.Errorf("csp: missing directive %q", sd.name)
		}
		delete(byName, sd.name)
		rest, err := stripFixed(sd, srcs)
		if err != nil {
			return nil, err
		}
		if sd.field == "" {
			continue
		}
		l, err := normaliseList(sd.field, rest)
		if err != nil {
			return nil, fmt.Errorf("csp: %s: %w", sd.name, err)
		}
		switch {
		case sd.field != FieldResource:
			*got.listOf(sd.field) = l
		case resourceFrom == "":
			got.Resource, resourceFrom = l, sd.name
		case !slices.Equal(got.Resource, l):
			return nil, fmt.Errorf("csp: %s and %s list different origins; the spec construction gives all five resource directives the same %s", resourceFrom, sd.name, FieldResource)
		}
	}
	for _, d := range ds {
		if _, extra := byName[d.Name]; extra {
			return nil, fmt.Errorf("csp: directive %q is not part of the spec construction", d.Name)
		}
	}
	return New(got)
}

// stripFixed checks that srcs hold sd's fixed sources (each exactly once) and
// its fallback when nothing else is listed, and returns the remaining sources.
func stripFixed(sd *specDirective, srcs []string) ([]string, error) {
	rest := make([]string, 0, len(srcs))
	found := make([]bool, len(sd.fixed))
	fallback := false
next:
	for _, s := range srcs {
		for j, f := range sd.fixed {
			if strings.EqualFold(s, f) {
				if found[j] {
					return nil, fmt.Errorf("csp: %s lists %s twice", sd.name, f)
				}
				found[j] = true
				continue next
			}
		}
		if sd.fallback != "" && strings.EqualFold(s, sd.fallback) {
			if fallback {
				return nil, fmt.Errorf("csp: %s lists %s twice", sd.name, sd.fallback)
			}
			fallback = true
			continue
		}
		rest = append(rest, s)
	}
	for j, f := range sd.fixed {
		if !found[j] {
			return nil, fmt.Errorf("csp: %s lacks %s", sd.name, f)
		}
	}
	if sd.fallback != "" && fallback != (len(rest) == 0) {
		if fallback {
			return nil, fmt.Errorf("csp: %s mixes %s with origins", sd.name, sd.fallback)
		}
		return nil, fmt.Errorf("csp: %s has no sources; the spec construction writes %s", sd.name, sd.fallback)
	}
	if sd.field == "" && len(rest) > 0 {
		return nil, fmt.Errorf("csp: %s has unexpected source %q", sd.name, rest[0])
	}
	return rest, nil
}

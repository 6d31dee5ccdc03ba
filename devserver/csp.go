package devserver

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/widgetd/widgetd/cspgen"
)

// cspViolation is one securitypolicyviolation event from a widget frame, as the
// injected reporter posts it.
type cspViolation struct {
	// Widget is the widget's name.
	Widget string `json:"widget"`
	// Host is the preview's host (PreviewHosts: "mcp-apps", "chatgpt", ...).
	Host string `json:"host,omitempty"`
	// Directive is the effective directive, e.g. "connect-src" or "img-src".
	Directive string `json:"directive"`
	// BlockedURI is the blocked URL, or "inline", "eval", "data", "blob".
	BlockedURI string `json:"blockedURI"`
	// SourceFile, Line and Column locate the code that triggered it.
	SourceFile string `json:"sourceFile,omitempty"`
	Line       int    `json:"line,omitempty"`
	Column     int    `json:"column,omitempty"`
	// Sample is the first characters of an inline script or style.
	Sample string `json:"sample,omitempty"`
}

// cspAdvice says how to fix a cspViolation in the widget's config.
type cspAdvice struct {
	cspViolation
	// Origin is the blocked URL's origin, the value to declare ("" when no
	// origin can be declared, e.g. eval).
	Origin string `json:"origin,omitempty"`
	// Field is the widget.json field to add Origin to, e.g.
	// "csp.connectDomains"; "" when no field allows it.
	Field string `json:"field,omitempty"`
	// ConfigFile is the widget.json to edit.
	ConfigFile string `json:"configFile"`
	// Message is the one-line explanation shown in the preview and terminal.
	Message string `json:"message"`
	// Source is where in the widget's sources the violating code was
	// written, when the build's source maps trace it.
	Source *SourcePos `json:"source,omitempty"`
}

// advise maps a violation to the widget.json field that would allow it. The
// directive decides the field, as in the spec's CSP construction:
// connect-src ← connectDomains; script/style/img/font/media-src ←
// resourceDomains; frame-src ← frameDomains; base-uri ← baseUriDomains.
// Everything else (eval, workers, objects, data:/blob: where the spec gives
// no way) cannot be declared, and the advice says so.
func advise(v cspViolation, configFile string) cspAdvice {
	a := cspAdvice{cspViolation: v, ConfigFile: configFile}
	dir := strings.ToLower(strings.TrimSpace(v.Directive))
	// script-src-elem, style-src-attr, … are governed by their base directive.
	base := strings.TrimSuffix(strings.TrimSuffix(dir, "-elem"), "-attr")
	if base == "child-src" {
		base = "frame-src"
	}
	blocked := strings.TrimSpace(v.BlockedURI)
	switch blocked {
	case "eval", "wasm-eval", "trusted-types-sink":
		a.Message = fmt.Sprintf("%s blocked %s: hosts never allow 'unsafe-eval'; remove eval/new Function from the bundle (for zod, call z.config({ jitless: true }))", dir, blocked)
		return a
	case "inline":
		a.Message = fmt.Sprintf("%s blocked an inline script or style; move it into a file imported by the widget", dir)
		return a
	}
	if msg, ok := schemeAdvice(dir, blocked); ok {
		a.Message = msg
		return a
	}
	u, err := url.Parse(blocked)
	if err != nil || u.Scheme == "" {
		a.Message = fmt.Sprintf("%s blocked %q; it cannot be allowed from widget.json", dir, blocked)
		return a
	}
	if u.Host == "" {
		a.Message = fmt.Sprintf("%s blocked %s; it cannot be allowed from widget.json", dir, blocked)
		return a
	}
	if a.Origin, err = cspgen.OriginOf(blocked); err != nil {
		a.Message = fmt.Sprintf("%s blocked %s; it cannot be allowed from widget.json", dir, blocked)
		return a
	}
	d, ok := cspgen.ParseDirective(base)
	if !ok {
		a.Message = fmt.Sprintf("%s blocked %s: the spec CSP allows nothing for %s (default-src 'none'), and no widget.json field changes that", dir, blocked, dir)
		return a
	}
	a.Field = "csp." + d.List()
	// Check that the origin is declarable at all (https, or http only for
	// localhost) with the same validator the build uses.
	var doms cspgen.Domains
	switch d.List() {
	case cspgen.FieldConnect:
		doms.Connect = []string{a.Origin}
	case cspgen.FieldResource:
		doms.Resource = []string{a.Origin}
	case cspgen.FieldFrame:
		doms.Frame = []string{a.Origin}
	case cspgen.FieldBaseURI:
		doms.BaseURI = []string{a.Origin}
	}
	if _, err := cspgen.New(doms); err != nil {
		a.Message = fmt.Sprintf("%s blocked %s; %s cannot declare it: %v", dir, blocked, a.Field, err)
		return a
	}
	a.Message = fmt.Sprintf("%s blocked %s: add %q to %s in %s", dir, blocked, a.Origin, a.Field, configFile)
	return a
}

package assets

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"slices"
	"strings"

	"github.com/widgetd/widgetd/internal/publicurl"
)

// DevURLEnv is the environment variable that switches a registry into dev
// mode (see WithDev) without a code change in the server: its value is the
// URL of a running `widgetd dev` as the hosts reach it.
const DevURLEnv = "WIDGETD_DEV_URL"

// devShellJS is the script of the dev shell document (see devShell).
//
//go:embed devshell.js
var devShellJS string

// WithDev switches the registry into development mode: resources/read
// returns, for each widget, a small shell document that loads the widget's
// current build from the `widgetd dev` at devURL (its preview origin, or its
// --public-url behind a tunnel) and swaps it in live on every rebuild, so a
// host such as ChatGPT or Claude shows each edit without reading the
// resource again and without a server restart. The read _meta is the
// embedded build's with devURL's origin added to the resource and connect
// domains (both shapes); resources/list, tool _meta, URIs and the Handler
// stay exactly what the embedded dist gives, so a host's cached template
// keeps working. An empty devURL leaves dev mode off, also when DevURLEnv is
// set. Without WithDev, Load reads DevURLEnv.
func WithDev(devURL string) Option {
	return func(o *options) {
		o.devURL = devURL
		o.devSet = true
	}
}

// devConfig resolves the dev URL from WithDev or DevURLEnv and checks it.
func devConfig(o *options) (string, error) {
	u, from := o.devURL, "WithDev"
	if !o.devSet {
		u, from = os.Getenv(DevURLEnv), DevURLEnv
	}
	if u == "" {
		return "", nil
	}
	n, err := publicurl.Normalize(u)
	if err != nil {
		return "", fmt.Errorf("%s: %w (the URL widgetd dev prints, e.g. http://127.0.0.1:5173 or its --public-url)", from, err)
	}
	return n, nil
}

// DevURL returns the `widgetd dev` URL the registry reads widgets from in
// dev mode, or "" when dev mode is off.
func (r *Registry) DevURL() string { return r.devURL }

// devRead answers resources/read in dev mode: the shell document of res's
// widget with the read _meta widened by the dev origin. ok is false for a
// URI whose widget the current build no longer has (a retained URI then
// reads its embedded HTML).
func (r *Registry) devRead(uri string, res resolved, c Client) (Contents, bool) {
	if res.widget == nil {
		return Contents{}, false
	}
	var m ResourceMeta
	if res.res != nil {
		m = res.res.ReadMeta
	}
	m = withDevOrigin(m, publicurl.Origin(r.devURL))
	return Contents{
		URI:      uri,
		MIMEType: res.mimeType,
		Text:     devShell(r.devURL, res.widget, res.profile),
		Meta:     r.tailorMeta(m, c),
	}, true
}

// withDevOrigin returns m (not changed) with origin added to the resource
// and connect domains of both CSP shapes: the shell loads the widget's
// scripts and styles from the dev server and follows its event stream.
func withDevOrigin(m ResourceMeta, origin string) ResourceMeta {
	ui := UIMeta{}
	if m.UI != nil {
		ui = *m.UI
	}
	csp := UICSP{}
	if ui.CSP != nil {
		csp = *ui.CSP
	}
	csp.ResourceDomains = appendOrigin(csp.ResourceDomains, origin)
	csp.ConnectDomains = appendOrigin(csp.ConnectDomains, origin)
	ui.CSP = &csp
	m.UI = &ui
	wcsp := WidgetCSP{}
	if m.WidgetCSP != nil {
		wcsp = *m.WidgetCSP
	}
	wcsp.ResourceDomains = appendOrigin(wcsp.ResourceDomains, origin)
	wcsp.ConnectDomains = appendOrigin(wcsp.ConnectDomains, origin)
	m.WidgetCSP = &wcsp
	return m
}

// appendOrigin returns a copy of list with origin at the end unless present.
func appendOrigin(list []string, origin string) []string {
	out := append(make([]string, 0, len(list)+1), list...)
	if slices.Contains(list, origin) {
		return out
	}
	return append(out, origin)
}

// devCSPDirectives are the directives of the spec CSP that the dev origin is
// added to: where the widget's scripts, styles, images, fonts and media load
// from, and where the shell's event stream and document fetch go.
var devCSPDirectives = map[string]bool{
	"script-src": true, "style-src": true, "img-src": true, "font-src": true, "media-src": true, "connect-src": true,
}

// devCSP adds origin to the load and connect directives of a spec CSP
// header value; the other directives are kept as they are.
func devCSP(header, origin string) string {
	parts := strings.Split(header, ";")
	for i, p := range parts {
		fields := strings.Fields(p)
		if len(fields) == 0 || !devCSPDirectives[strings.ToLower(fields[0])] {
			continue
		}
		if len(fields) == 2 && fields[1] == "'none'" {
			fields = fields[:1]
		}
		parts[i] = " " + strings.Join(append(fields, origin), " ")
	}
	return strings.TrimSpace(strings.Join(parts, ";"))
}

// devShellConfig is what the shell script reads from its document.
type devShellConfig struct {
	// Dev is the widgetd dev URL (events at Dev+"/_widgetd/events").
	Dev string `json:"dev"`
	// Widget is the widget's name in the dev build.
	Widget string `json:"widget"`
	// Profile is the resource's profile (mcp-app or skybridge).
	Profile string `json:"profile"`
}

// devShell is the document resources/read returns for w in dev mode: the
// widget's CSP plus the dev origin as a <meta> policy (so a lax host
// enforces it too), an iframe the current build of the widget is written
// into, and the script that keeps it current. Its contract is in
// docs/manifest.md ("Dev mode").
func devShell(devURL string, w *Widget, profile string) string {
	cfg, _ := json.Marshal(devShellConfig{Dev: devURL, Widget: w.Name, Profile: profile}) // plain strings: cannot fail
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8">`)
	if w.CSP != "" {
		b.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(devCSP(w.CSP, publicurl.Origin(devURL))) + `">`)
	}
	b.WriteString(`<meta name="widgetd-dev" content="` + html.EscapeString(string(cfg)) + `">`)
	b.WriteString(`<title>` + html.EscapeString(w.Name) + ` (widgetd dev)</title>`)
	b.WriteString(`<style>html,body{margin:0;padding:0}#widgetd-dev{display:block;width:100%;height:0;border:0}` +
		`#widgetd-dev-status{margin:0;padding:8px 12px;font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap;background:#fff4f4;color:#8a1010}` +
		`#widgetd-dev-status[hidden]{display:none}</style></head><body>`)
	b.WriteString(`<pre id="widgetd-dev-status" hidden></pre><iframe id="widgetd-dev" title="` + html.EscapeString(w.Title+" "+w.Name) + `"></iframe>`)
	b.WriteString(`<script>` + devShellJS + `</script></body></html>`)
	return b.String()
}

package devserver

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
)

// ServerWidgetPath is where the sandbox origin serves a widget document read
// from the --mcp server (query uri=ui://…), so the preview can render the
// server's own widget rather than the local build.
const ServerWidgetPath = "/_widgetd/server-widget"

// serverWidget is a widget resource read from the --mcp server: its
// document, the MIME type and _meta of its content, and the CSP header a
// host builds from that metadata.
type serverWidget struct {
	URI      string   `json:"uri"`
	MIMEType string   `json:"mimeType"`
	Meta     mcp.Meta `json:"_meta"`
	CSP      string   `json:"csp"`
	doc      []byte
}

// readServerWidget reads uri from the --mcp server and builds its CSP (from
// the content's _meta, else from the resources/list entry's). The status is
// what an HTTP answer of the error should carry.
func (s *Server) readServerWidget(ctx context.Context, uri string) (*serverWidget, int, error) {
	if err := checkResourceURI(uri, "ui"); err != nil {
		return nil, http.StatusBadRequest, err
	}
	res, err := s.mcp.readResource(ctx, uri)
	if err != nil {
		s.log.printf("widgetd dev: %s\n", quoteForTerminal(err.Error()))
		return nil, http.StatusBadGateway, err
	}
	c, err := widgetContent(uri, res)
	if err != nil {
		return nil, http.StatusBadGateway, err
	}
	metas := []mcp.Meta{c.Meta}
	if !hasCSP(c.MIMEType, c.Meta) {
		metas = append(metas, s.mcp.listedResourceMeta(ctx, uri))
	}
	csp, err := serverWidgetCSP(c.MIMEType, metas...)
	if err != nil {
		return nil, http.StatusBadGateway, fmt.Errorf("widget %s: %w; fix the resource's _meta on the server", uri, err)
	}
	doc := []byte(c.Text)
	if c.Blob != nil {
		doc = c.Blob
	}
	return &serverWidget{URI: uri, MIMEType: c.MIMEType, Meta: c.Meta, CSP: csp, doc: doc}, http.StatusOK, nil
}

// serveServerWidget reads uri from the --mcp server and serves its HTML
// like a local widget document: under the CSP a host builds from the
// resource's metadata, with the same scripts injected (reporter, and
// window.openai for the ChatGPT hosts), so the preview drives it the same
// way; its tools/call reach the server through the preview's forwarder.
func (s *Server) serveServerWidget(w http.ResponseWriter, r *http.Request) {
	if s.mcp == nil {
		http.Error(w, "no MCP server configured; start widgetd dev with --mcp http://…", http.StatusNotFound)
		return
	}
	sw, status, err := s.readServerWidget(r.Context(), r.URL.Query().Get("uri"))
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	writeWidgetDoc(w, r, sw.doc, sw.CSP, nil)
}

// writeWidgetDoc serves a widget document on the sandbox origin: the dev
// scripts injected first, its CSP header (none with csp=none, which
// emulates ChatGPT's developer mode), never cached; tail (the edit loop's
// scripts for a local widget) goes after the document.
func writeWidgetDoc(w http.ResponseWriter, r *http.Request, doc []byte, csp string, tail []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	if r.URL.Query().Get("csp") != "none" {
		h.Set("Content-Security-Policy", csp)
	}
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(append(injectScripts(doc, documentScripts(r.URL.Query())...), tail...))
}

// checkResourceURI refuses a resource URI the inspector will not send: empty,
// longer than maxResourceURI, with control characters or spaces, not a URI,
// or (when scheme is set) of another scheme.
func checkResourceURI(uri, scheme string) error {
	if uri == "" {
		return fmt.Errorf("query parameter uri is missing; pass the resource URI, e.g. ?uri=ui://widget/hello.html")
	}
	if len(uri) > maxResourceURI {
		return fmt.Errorf("uri is %d bytes long; at most %d are accepted", len(uri), maxResourceURI)
	}
	if i := strings.IndexFunc(uri, func(r rune) bool { return r <= ' ' || r == 0x7f }); i >= 0 {
		return fmt.Errorf("uri has a control character or space at byte %d; percent-encode it", i)
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" {
		return fmt.Errorf("uri %q is not an absolute URI such as ui://widget/hello.html", uri)
	}
	if scheme != "" && !strings.EqualFold(u.Scheme, scheme) {
		return fmt.Errorf("uri %q is not a %s:// widget resource", uri, scheme)
	}
	return nil
}

// widgetContent is the HTML content of a resources/read answer: the first
// content of a widget MIME type.
func widgetContent(uri string, res *mcp.ReadResourceResult) (*mcp.ResourceContents, error) {
	var seen []string
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		if isWidgetMIME(c.MIMEType) {
			return c, nil
		}
		seen = append(seen, fmt.Sprintf("%q", c.MIMEType))
	}
	return nil, fmt.Errorf("resources/read %s gave no widget HTML (mimeType %s or %s); it gave [%s]", uri, assets.MIMETypeMCPApp, assets.MIMETypeSkybridge, strings.Join(seen, ", "))
}

// isWidgetMIME reports whether a MIME type is a widget document's.
func isWidgetMIME(m string) bool {
	m = strings.ToLower(strings.ReplaceAll(m, " ", ""))
	return m == assets.MIMETypeMCPApp || m == assets.MIMETypeSkybridge
}

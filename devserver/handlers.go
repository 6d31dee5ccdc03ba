package devserver

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/fixture"
	"github.com/widgetd/widgetd/internal/contenttype"
	"github.com/widgetd/widgetd/internal/publicurl"
)

// static holds the preview pages, their stylesheet and the committed host
// app bundle (hostapp.js, built by `go generate` from hostapp/).
//
//go:embed static
var static embed.FS

var pages = template.Must(template.ParseFS(static, "static/*.html"))

// prefixRE accepts an X-Forwarded-Prefix made of plain path segments.
var prefixRE = regexp.MustCompile(`^(/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$`)

// basePath is the path prefix under which the client reached the preview
// origin: with TrustForwarded, X-Forwarded-Prefix from a reverse proxy that
// mounts the preview under a sub-path (and strips it); else the path of
// --public-url for a request addressed to its host; else none. Pages build
// every link from it.
func (s *Server) basePath(r *http.Request) string {
	if s.opts.TrustForwarded {
		if p := strings.TrimRight(r.Header.Get("X-Forwarded-Prefix"), "/"); p != "" && prefixRE.MatchString(p) {
			return p
		}
	}
	if s.opts.PublicURL == "" {
		return ""
	}
	pu, err := url.Parse(s.opts.PublicURL)
	if err != nil || !strings.EqualFold(normalHost(pu.Hostname()), normalHost(hostOnly(r.Host))) {
		return ""
	}
	if p := strings.TrimRight(pu.EscapedPath(), "/"); prefixRE.MatchString(p) {
		return p
	}
	return ""
}

// hostOnly is the host of a Host header value without its port.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// pageConfig is what the host app reads from the page (data-config).
type pageConfig struct {
	Base       string `json:"base"`
	Widget     string `json:"widget,omitempty"`
	SandboxURL string `json:"sandboxUrl"`
	MCP        string `json:"mcp,omitempty"`
	Version    string `json:"version"`
	// Devices are the device presets (devices.go) the preview offers.
	Devices []fixture.Device `json:"devices"`
}

// previewHandler serves the preview origin.
func (s *Server) previewHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveIndex)
	mux.HandleFunc("GET /preview/{name}", s.servePreview)
	mux.HandleFunc("GET /_widgetd/events", s.serveEvents)
	mux.HandleFunc("GET /_widgetd/state", s.serveState)
	mux.HandleFunc("GET /_widgetd/doc/{name}", s.serveDoc)
	mux.HandleFunc("GET /_widgetd/{file}", s.serveStatic)
	mux.HandleFunc("POST /_widgetd/csp-report", s.sameOrigin(s.serveCSPReport))
	mux.HandleFunc("POST /_widgetd/error-report", s.sameOrigin(s.serveErrorReport))
	mux.HandleFunc("POST /_widgetd/call-tool", s.sameOrigin(s.serveCallTool))
	mux.HandleFunc("GET /manifest.json", s.serveManifest)
	mux.HandleFunc("GET /favicon.ico", s.serveFavicon)
	mux.HandleFunc("GET /{path...}", s.serveBuilt)
	s.mountMCPProxy(mux)
	s.mountMCPInspector(mux)
	cop := http.NewCrossOriginProtection()
	if s.opts.PublicURL != "" {
		_ = cop.AddTrustedOrigin(publicurl.Origin(s.opts.PublicURL))
	}
	return s.guardHost(cop.Handler(mux))
}

func (s *Server) config(r *http.Request, widget string) string {
	c := pageConfig{Base: s.basePath(r), Widget: widget, SandboxURL: s.sandboxURL, Version: bundler.Version, Devices: fixture.Devices()}
	if s.mcp != nil {
		c.MCP = s.opts.MCPURL
	}
	data, _ := json.Marshal(c)
	return string(data)
}

func noStore(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	noStore(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	st := s.State()
	var widgets []WidgetInfo
	if st != nil {
		widgets = st.Widgets
	}
	_ = pages.ExecuteTemplate(w, "index.html", map[string]any{
		"Base": s.basePath(r), "Config": s.config(r, ""), "Widgets": widgets, "Version": bundler.Version,
	})
}

func (s *Server) servePreview(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	noStore(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pages.ExecuteTemplate(w, "preview.html", map[string]any{
		"Base": s.basePath(r), "Config": s.config(r, name), "Name": name, "Version": bundler.Version,
	})
}

func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	var ctype string
	switch filepath.Ext(name) {
	case ".js":
		ctype = "text/javascript; charset=utf-8"
	case ".css":
		ctype = "text/css; charset=utf-8"
	case ".svg":
		ctype = "image/svg+xml"
	default:
		http.NotFound(w, r)
		return
	}
	data, err := static.ReadFile("static/" + name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// serveFavicon answers the browser's /favicon.ico request (made for pages
// that name no icon, e.g. manifest.json opened directly) with the preview's
// icon, unless the build has a favicon.ico of its own: no 404 on any page.
func (s *Server) serveFavicon(w http.ResponseWriter, r *http.Request) {
	var data []byte
	s.mu.RLock()
	if s.out != nil {
		data = s.out.Files["favicon.ico"]
	}
	s.mu.RUnlock()
	ctype := contenttype.For("favicon.ico")
	if data == nil {
		data, _ = static.ReadFile("static/favicon.svg")
		ctype = "image/svg+xml"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// serveEvents is the live-reload stream: the current state at once, then one
// "build" event per rebuild, and a comment every 15 s so proxies keep the
// connection open.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	s.cors(w, r) // the dev shell of a host's widget follows it (assets.WithDev)
	rc := http.NewResponseController(w)
	ch, ok := s.hub.addStream()
	if !ok {
		http.Error(w, fmt.Sprintf("no live-reload stream available: the server is shutting down, or %d are open already", maxLiveStreams), http.StatusServiceUnavailable)
		return
	}
	defer s.hub.removeStream(ch)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	if st := s.State(); st != nil {
		data, _ := json.Marshal(st)
		fmt.Fprintf(w, "event: build\ndata: %s\n\n", data)
	} else {
		fmt.Fprint(w, ": waiting for the first build\n\n")
	}
	if err := rc.Flush(); err != nil {
		return
	}
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case data, ok := <-ch:
			if !ok {
				return
			}
			fmt.Fprintf(w, "event: build\ndata: %s\n\n", data)
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n")
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	noStore(w)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.State())
}

// maxCallBody is the largest tools/call request body read.
const maxCallBody = 1 << 20

// readJSONBody decodes a JSON request body of at most limit bytes; a larger
// body is a *http.MaxBytesError.
func readJSONBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("Content-Type must be application/json")
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("request body: %w", err)
	}
	return nil
}

// bodyStatus is the status for a body readJSONBody refused.
func bodyStatus(err error) int {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// readReport decodes into v a report the preview page posts (what names
// the kind in the error), within the reports' rate limit. When it reports
// false it has answered the request itself: 429 over the limit, or what is
// wrong with the body.
func (s *Server) readReport(w http.ResponseWriter, r *http.Request, what string, v any) bool {
	if !s.reports.allow(time.Now()) {
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": "too many " + what + "; slow down"})
		return false
	}
	if err := readJSONBody(w, r, maxReportBody, v); err != nil {
		writeJSON(w, bodyStatus(err), map[string]string{"error": err.Error()})
		return false
	}
	return true
}

// serveCSPReport receives a violation the preview page got from the widget
// frame, prints it (once per widget, directive and origin per build) and
// returns the advice the page shows.
func (s *Server) serveCSPReport(w http.ResponseWriter, r *http.Request) {
	var v cspViolation
	if !s.readReport(w, r, "CSP reports", &v) {
		return
	}
	clipViolation(&v)
	a := advise(v, s.configFile(v.Widget))
	a.Source = s.locateReported(v.Widget, v.SourceFile, v.Line, v.Column)
	key := v.Widget + "\x00" + v.Directive + "\x00" + a.Origin + "\x00" + v.BlockedURI
	if a.Origin != "" {
		key = v.Widget + "\x00" + v.Directive + "\x00" + a.Origin
	}
	if s.reports.firstTime(key) {
		loc, src := "", ""
		if a.Source != nil {
			loc = " (at " + a.Source.String() + ")"
			if a.Source.Text != "" {
				src = "\n    " + quoteForTerminal(strings.TrimSpace(a.Source.Text))
			}
		} else if v.SourceFile != "" {
			loc = fmt.Sprintf(" (at %s:%d:%d)", v.SourceFile, v.Line, v.Column)
		}
		s.log.printf("widgetd dev: %s%s\n", quoteForTerminal(fmt.Sprintf("CSP violation in widget %s%s: %s", v.Widget, loc, a.Message)), src)
	}
	writeJSON(w, http.StatusOK, a)
}

// configFile is the widget.json of a widget, for advice messages.
func (s *Server) configFile(name string) string {
	s.mu.RLock()
	out := s.out
	s.mu.RUnlock()
	if out != nil {
		if p, ok := out.ConfigFiles[name]; ok {
			return relPath(p)
		}
	}
	if name != "" && !strings.ContainsAny(name, `/\`) && name != "." && name != ".." {
		p := filepath.Join(s.widgetsDir, name, layout.WidgetConfigFile)
		if _, err := os.Stat(p); err == nil {
			return relPath(p)
		}
	}
	return fmt.Sprintf("the %s of widget %q", layout.WidgetConfigFile, name)
}

// serveCallTool forwards a widget's tools/call to the --mcp server.
func (s *Server) serveCallTool(w http.ResponseWriter, r *http.Request) {
	if s.mcp == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no MCP server configured; start widgetd dev with --mcp http://…"})
		return
	}
	var req struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := readJSONBody(w, r, maxCallBody, &req); err != nil || req.Name == "" {
		msg, status := "body must be {\"name\": string, \"arguments\": object}", http.StatusBadRequest
		if err != nil {
			msg, status = err.Error(), bodyStatus(err)
		}
		writeJSON(w, status, map[string]string{"error": msg})
		return
	}
	res, err := s.mcp.callTool(r.Context(), req.Name, req.Arguments)
	if err != nil {
		s.log.printf("widgetd dev: %s\n", quoteForTerminal(err.Error()))
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// serveManifest serves the in-memory manifest of the current build, so an
// MCP server under development can read widget URIs, HTML and _meta from
// the dev server the way it reads dist/manifest.json.
func (s *Server) serveManifest(w http.ResponseWriter, r *http.Request) {
	s.mu.RLock()
	out := s.out
	s.mu.RUnlock()
	if out == nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "no successful build yet"})
		return
	}
	s.cors(w, r)
	writeJSON(w, http.StatusOK, out.Manifest)
}

// serveBuilt serves the files of the current build by their dist/ path.
func (s *Server) serveBuilt(w http.ResponseWriter, r *http.Request) {
	p := r.PathValue("path")
	s.mu.RLock()
	var data []byte
	var ok bool
	if s.out != nil {
		data, ok = s.out.Files[p]
	}
	s.mu.RUnlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	s.cors(w, r)
	noStore(w)
	w.Header().Set("Content-Type", contenttype.For(p))
	_, _ = w.Write(data)
}

// serveDoc serves the current build's document of one widget, as built, for
// the dev shell a registry in dev mode returns from resources/read
// (assets.WithDev): the shell writes it into its frame on every rebuild.
func (s *Server) serveDoc(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s.mu.RLock()
	out := s.out
	s.mu.RUnlock()
	s.cors(w, r)
	noStore(w)
	if out == nil {
		http.Error(w, "no successful build yet", http.StatusServiceUnavailable)
		return
	}
	for _, wd := range out.Manifest.Widgets {
		if wd.Name == name {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			// The preview page's edit loop (hmr.ts) compares documents
			// by the hash the build events carry.
			w.Header().Set("X-Widgetd-Hash", wd.Hash)
			_, _ = w.Write(out.Files[wd.HTML])
			return
		}
	}
	http.Error(w, fmt.Sprintf("no widget %q in the current build", name), http.StatusNotFound)
}

// sandboxHandler serves the sandbox origin: widget documents only, each with
// its spec CSP header exactly as built. Nothing else exists on this origin,
// as on a real host's sandbox, so 'self' reaches nothing.
func (s *Server) sandboxHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /widget/{name}", s.serveWidget)
	mux.HandleFunc("GET "+ServerWidgetPath, s.serveServerWidget)
	return s.guardHost(mux)
}

func (s *Server) serveWidget(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s.mu.RLock()
	out := s.out
	s.mu.RUnlock()
	if out == nil {
		http.Error(w, "no successful build yet", http.StatusServiceUnavailable)
		return
	}
	for _, wd := range out.Manifest.Widgets {
		if wd.Name != name {
			continue
		}
		writeWidgetDoc(w, r, out.Files[wd.HTML], wd.CSP, s.editScripts(out.RefreshVendors, name))
		return
	}
	http.Error(w, fmt.Sprintf("no widget %q in the current build", name), http.StatusNotFound)
}

package devserver

import (
	"net/http"
	"net/http/httputil"
	"net/url"
)

// MCPPath is where the preview origin publishes the --mcp server when it has
// a public URL (--public-url or --tunnel), so one tunnel carries both the
// widgets and the MCP endpoint a host's connector points at.
const MCPPath = "/mcp"

// PublicMCPURL is the public URL of the --mcp server through the preview
// origin, or "" when it is not published (no --mcp or no public URL).
func (s *Server) PublicMCPURL() string {
	if s.mcp == nil || s.opts.PublicURL == "" {
		return ""
	}
	return s.opts.PublicURL + MCPPath
}

// PublicURL is the URL the preview origin is reached at through a tunnel or
// reverse proxy, or "".
func (s *Server) PublicURL() string { return s.opts.PublicURL }

// mountMCPProxy publishes the --mcp server at MCPPath (Streamable HTTP:
// POST, the GET event stream, DELETE) when the preview has a public URL.
// The Host allowlist and Go's cross-origin protection wrap it like every
// route, and POST and DELETE also pass the same Origin check as the dev
// server's own endpoints: a host's backend (no Origin header) may call it,
// a page of another origin in a browser may not.
func (s *Server) mountMCPProxy(mux *http.ServeMux) {
	if s.PublicMCPURL() == "" {
		return
	}
	target, err := url.Parse(s.opts.MCPURL)
	if err != nil {
		return // New validated it
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host = target.Scheme, target.Host
			pr.Out.URL.Path, pr.Out.URL.RawPath = target.Path, target.RawPath
			if pr.Out.URL.Path == "" {
				pr.Out.URL.Path = "/"
			}
			pr.Out.Host = target.Host
			pr.SetXForwarded()
		},
		FlushInterval: -1, // stream the server's event-stream answers
	}
	mux.Handle("GET "+MCPPath, proxy)
	mux.Handle("POST "+MCPPath, s.sameOrigin(proxy.ServeHTTP))
	mux.Handle("DELETE "+MCPPath, s.sameOrigin(proxy.ServeHTTP))
}

package devserver

import (
	"context"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The inspector API of `widgetd dev --mcp` on the preview origin: the
// server's tools, a tools/call made from the preview, resources/read, and
// a widget resource's _meta with the CSP the sandbox serves it under.
// Each answers JSON; {"error": "..."} with 404 when no --mcp server is set
// (the preview then shows no server panel), 502 when the server fails.
const (
	mcpToolsPath    = "/_widgetd/mcp/tools"
	mcpCallPath     = "/_widgetd/mcp/call"
	mcpResourcePath = "/_widgetd/mcp/resource"
	mcpWidgetPath   = "/_widgetd/mcp/widget"
)

// mountMCPInspector adds the inspector API to the preview mux (the sandbox
// serves ServerWidgetPath); every route passes the same Origin check
// as the dev server's other endpoints (the GETs too: they reach the user's
// server, so only the preview page may make them).
func (s *Server) mountMCPInspector(mux *http.ServeMux) {
	mux.HandleFunc("GET "+mcpToolsPath, s.sameOrigin(s.serveMCPTools))
	mux.HandleFunc("POST "+mcpCallPath, s.sameOrigin(s.serveMCPCall))
	mux.HandleFunc("GET "+mcpResourcePath, s.sameOrigin(s.serveMCPResource))
	mux.HandleFunc("GET "+mcpWidgetPath, s.sameOrigin(s.serveMCPWidget))
}

// noServer answers 404 when widgetd dev runs without --mcp.
func (s *Server) noServer(w http.ResponseWriter) bool {
	if s.mcp != nil {
		return false
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"error": "no MCP server configured; start widgetd dev with --mcp http://…/mcp"})
	return true
}

// localWidgets are the names of the current build's widgets.
func (s *Server) localWidgets() []string {
	st := s.State()
	if st == nil {
		return nil
	}
	names := make([]string, 0, len(st.Widgets))
	for _, w := range st.Widgets {
		names = append(names, w.Name)
	}
	return names
}

// serveMCPTools answers the server's tools/list (see serverTools).
func (s *Server) serveMCPTools(w http.ResponseWriter, r *http.Request) {
	if s.noServer(w) {
		return
	}
	tools, err := s.mcp.listTools(r.Context(), s.localWidgets())
	if err != nil {
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error() + " (is the server running?)"})
		return
	}
	writeJSON(w, http.StatusOK, tools)
}

// mcpCallAnswer is the answer of POST /_widgetd/mcp/call.
type mcpCallAnswer struct {
	Result      *mcp.CallToolResult `json:"result"`
	ResourceURI string              `json:"resourceUri"`
	ElapsedMs   int64               `json:"elapsedMs"`
	// Validated says the arguments were checked against the tool's
	// inputSchema before the call (false: no usable schema).
	Validated bool `json:"validated"`
}

// serveMCPCall validates the arguments against the tool's inputSchema,
// calls the tool on the server and answers its CallToolResult with the
// widget URI the tool names and how long the call took.
func (s *Server) serveMCPCall(w http.ResponseWriter, r *http.Request) {
	if s.noServer(w) {
		return
	}
	var req struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := readJSONBody(w, r, maxCallBody, &req); err != nil || req.Name == "" {
		msg, status := `body must be {"name": string, "arguments": object}`, http.StatusBadRequest
		if err != nil {
			msg, status = err.Error(), bodyStatus(err)
		}
		writeJSON(w, status, map[string]string{"error": msg})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), callTimeout)
	defer cancel()
	tool, _, err := s.mcp.tool(ctx, req.Name, s.localWidgets())
	if err != nil {
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
		return
	}
	checked, err := validateArguments(tool.InputSchema, req.Arguments)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "tool " + req.Name + ": " + err.Error()})
		return
	}
	start := time.Now()
	res, err := s.mcp.callTool(ctx, req.Name, req.Arguments)
	if err != nil {
		s.log.printf("widgetd dev: %s\n", quoteForTerminal(err.Error()))
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, mcpCallAnswer{Result: res, ResourceURI: tool.ResourceURI, ElapsedMs: time.Since(start).Milliseconds(), Validated: checked})
}

// serveMCPResource answers the server's resources/read of ?uri=.
func (s *Server) serveMCPResource(w http.ResponseWriter, r *http.Request) {
	if s.noServer(w) {
		return
	}
	uri := r.URL.Query().Get("uri")
	if err := checkResourceURI(uri, ""); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	res, err := s.mcp.readResource(r.Context(), uri)
	if err != nil {
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// serveMCPWidget answers what the preview's Resource and CSP panels show of
// the server's widget ?uri=: its MIME type, its content's _meta and the
// CSP header the sandbox serves its document with.
func (s *Server) serveMCPWidget(w http.ResponseWriter, r *http.Request) {
	if s.noServer(w) {
		return
	}
	sw, status, err := s.readServerWidget(r.Context(), r.URL.Query().Get("uri"))
	if err != nil {
		writeJSON(w, status, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, sw)
}

package devserver

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// SourcePos is where in a widget's sources a place the browser reported
// (in the widget document or a script it loads) was written, traced
// through the build's source maps.
type SourcePos struct {
	// File is the source file as messages show it, e.g.
	// "widgets/hello/index.tsx".
	File string `json:"file"`
	// Line and Column are 1-based.
	Line   int `json:"line"`
	Column int `json:"column"`
	// Text is the source line, when the map holds the source.
	Text string `json:"text,omitempty"`
}

// String is "file:line:col".
func (p SourcePos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column) }

// withSource is "file:line:col" followed by the source line, indented, on
// the next line, as terminal messages show a place.
func (p *SourcePos) withSource() string {
	if p.Text == "" {
		return p.String()
	}
	return p.String() + "\n    " + strings.TrimSpace(p.Text)
}

// documentScripts are the scripts the sandbox origin puts first in a widget
// document requested with query: the reporter, and window.openai for the
// ChatGPT host.
func documentScripts(query url.Values) []string {
	scripts := []string{reporterScript}
	if HostHasOpenAI(query.Get("host")) {
		scripts = append(scripts, openaiScript)
	}
	return scripts
}

// locateReported traces a 1-based line and column the browser reported in
// fileURL (the widget's document on the sandbox origin, or a built file) to
// the widget's sources; nil when the build has no map for that place.
func (s *Server) locateReported(widget, fileURL string, line, col int) *SourcePos {
	if widget == "" || fileURL == "" || line <= 0 {
		return nil
	}
	u, err := url.Parse(fileURL)
	if err != nil {
		return nil
	}
	s.mu.RLock()
	out := s.out
	s.mu.RUnlock()
	if out == nil {
		return nil
	}
	var text []byte
	if u.Path == "/widget/"+widget {
		for _, wd := range out.Manifest.Widgets {
			if wd.Name == widget {
				text = injectScripts(out.Files[wd.HTML], documentScripts(u.Query())...)
			}
		}
	} else {
		text = out.Files[strings.TrimPrefix(u.Path, "/")]
	}
	d, ok := out.Sources.Locate(widget, text, line, col)
	if !ok {
		return nil
	}
	return &SourcePos{File: d.File, Line: d.Line, Column: d.Column, Text: clip(d.Source, maxReportField)}
}

// UncaughtError is an uncaught error or unhandled rejection in a widget
// frame, as the preview page forwards it.
type UncaughtError struct {
	// Widget is the widget's name.
	Widget string `json:"widget"`
	// Message is the error's message.
	Message string `json:"message"`
	// File, Line and Column are where the browser says it was thrown (the
	// bundle: the widget document or a script it loads).
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Source is where in the widget's sources that is, when known.
	Source *SourcePos `json:"source,omitempty"`
}

// serveErrorReport receives an uncaught error the preview page got from the
// widget frame, traces it to the source line, prints it (once per widget,
// message and place per build) and returns it with its source position.
func (s *Server) serveErrorReport(w http.ResponseWriter, r *http.Request) {
	var e UncaughtError
	if !s.readReport(w, r, "reports", &e) {
		return
	}
	for _, f := range []*string{&e.Widget, &e.Message, &e.File} {
		*f = clip(*f, maxReportField)
	}
	e.Source = s.locateReported(e.Widget, e.File, e.Line, e.Column)
	at := ""
	if e.Source != nil {
		at = " at " + e.Source.withSource()
	} else if e.File != "" {
		at = fmt.Sprintf(" at %s:%d:%d", e.File, e.Line, e.Column)
	}
	if s.reports.firstTime("error\x00" + e.Widget + "\x00" + e.Message + "\x00" + at) {
		s.log.printf("widgetd dev: %s\n", quoteForTerminal(fmt.Sprintf("uncaught error in widget %s: %s", e.Widget, e.Message))+quoteLines(at))
	}
	writeJSON(w, http.StatusOK, e)
}

// quoteLines is quoteForTerminal for each line of s, keeping the newlines.
func quoteLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = quoteForTerminal(l)
	}
	return strings.Join(lines, "\n")
}

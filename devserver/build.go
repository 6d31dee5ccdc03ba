package devserver

import (
	"context"
	"path/filepath"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/fixture"
)

// BuildEvent is the result of one (re)build, as sent to open previews over
// Server-Sent Events and to Subscribe channels.
type BuildEvent struct {
	// Seq counts builds from 1.
	Seq int `json:"seq"`
	// OK is false when the build failed; Diagnostics then say why and the
	// previous good build keeps being served.
	OK bool `json:"ok"`
	// DurationMs is the rebuild's wall time in milliseconds.
	DurationMs float64 `json:"durationMs"`
	// BuildID is the build's ID (empty when the build failed).
	BuildID string `json:"buildId,omitempty"`
	// Widgets lists the built widgets (those of the last good build when
	// this one failed).
	Widgets []WidgetInfo `json:"widgets"`
	// Diagnostics are the build's errors and warnings.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// Changed lists a few of the files whose change triggered the build.
	Changed []string `json:"changed,omitempty"`
	// Time is when the build finished.
	Time time.Time `json:"time"`
}

// WidgetInfo is what a preview page needs about one built widget.
type WidgetInfo struct {
	// Name, Title and Description come from widget.json.
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Hash changes whenever anything the host renders changes; previews
	// reload the widget when it does.
	Hash string `json:"hash"`
	// CSP is the exact header the sandbox origin serves the widget with.
	CSP string `json:"csp"`
	// URI is the primary resource URI.
	URI string `json:"uri"`
	// Meta is the resources/read _meta of the primary profile.
	Meta *assets.ResourceMeta `json:"meta"`
	// Fixtures are the widget's fixtures (fixtures/*.json, then a legacy
	// preview.json), the first one rendered by default.
	Fixtures []fixture.Named `json:"fixtures,omitempty"`
	// FixtureError is why the fixtures could not be read (file:line:col).
	FixtureError string `json:"fixtureError,omitempty"`
	// Tool is the tool of the --mcp server linked to this widget (its
	// _meta resourceUri); the preview's "Tool name" defaults to it.
	Tool string `json:"tool,omitempty"`
}

// Diagnostic is a build problem as shown in the overlay: the fields of
// diag.Diagnostic plus the formatted text (file:line:col, source, caret).
type Diagnostic struct {
	diag.Diagnostic
	// Text is Diagnostic.String().
	Text string `json:"text"`
}

// rebuild assembles the project once and publishes the result.
func (s *Server) rebuild(ctx context.Context, changedPaths []string) {
	start := time.Now()
	out, err := s.builder.Assemble(ctx)
	if ctx.Err() != nil {
		return
	}
	dur := time.Since(start)
	tools := s.mcp.widgetTools(ctx)

	s.mu.Lock()
	prev := s.state
	ev := &BuildEvent{OK: err == nil, DurationMs: float64(dur.Microseconds()) / 1000, Time: time.Now()}
	for _, p := range changedPaths {
		ev.Changed = append(ev.Changed, relPath(p))
	}
	if prev != nil {
		ev.Seq = prev.Seq + 1
	} else {
		ev.Seq = 1
	}
	if err != nil {
		diags := diag.FromError(err)
		if diags == nil {
			diags = []diag.Diagnostic{{File: "widgetd", Message: err.Error()}}
		}
		for _, d := range diags {
			ev.Diagnostics = append(ev.Diagnostics, Diagnostic{Diagnostic: d, Text: d.String()})
		}
		if prev != nil {
			ev.Widgets = prev.Widgets
		}
	} else {
		s.out = out
		ev.BuildID = out.Manifest.BuildID
		for _, d := range out.Warnings {
			ev.Diagnostics = append(ev.Diagnostics, Diagnostic{Diagnostic: d, Text: d.String()})
		}
		for _, w := range out.Manifest.Widgets {
			wi := s.widgetInfo(w)
			wi.Tool = tools[w.Name]
			ev.Widgets = append(ev.Widgets, wi)
		}
	}
	s.state = ev
	s.mu.Unlock()

	s.report(prev, ev)
	s.hub.publish(ev)
}

// widgetInfo summarises a manifest widget for the preview.
func (s *Server) widgetInfo(w assets.Widget) WidgetInfo {
	wi := WidgetInfo{Name: w.Name, Title: w.Title, Description: w.Description, Hash: w.Hash, CSP: w.CSP}
	if len(w.Profiles) > 0 {
		wi.URI = w.Profiles[0].URI
		wi.Meta = &w.Profiles[0].ReadMeta
	}
	dir := filepath.Join(s.widgetsDir, w.Name)
	if cfg, ok := s.out.ConfigFiles[w.Name]; ok {
		dir = filepath.Dir(cfg)
	}
	fixtures, err := fixture.Load(dir)
	if err != nil {
		wi.FixtureError = err.Error()
		s.log.printf("%v\n", err)
	}
	wi.Fixtures = fixtures
	return wi
}

// report prints a build's outcome to the terminal: errors in full, and on
// success which widgets changed.
func (s *Server) report(prev, ev *BuildEvent) {
	if !ev.OK {
		for _, d := range ev.Diagnostics {
			s.log.printf("%s\n", d.Text)
		}
		s.log.printf("widgetd dev: build failed; previews show the error and recover when it is fixed\n")
		return
	}
	for _, d := range ev.Diagnostics {
		s.log.printf("%s\n", d.Text)
	}
	old := map[string]string{}
	if prev != nil {
		for _, w := range prev.Widgets {
			old[w.Name] = w.Hash
		}
	}
	var updated, added []string
	for _, w := range ev.Widgets {
		h, ok := old[w.Name]
		switch {
		case !ok:
			added = append(added, w.Name)
		case h != w.Hash:
			updated = append(updated, w.Name)
		}
		delete(old, w.Name)
	}
	switch {
	case prev == nil:
		s.log.printf("widgetd dev: built %d widget(s) in %.0f ms\n", len(ev.Widgets), ev.DurationMs)
		return
	case !prev.OK:
		s.log.printf("widgetd dev: build fixed, rebuilt in %.0f ms\n", ev.DurationMs)
	}
	for _, n := range added {
		s.log.printf("widgetd dev: new widget %s (%.0f ms)\n", n, ev.DurationMs)
	}
	for n := range old {
		s.log.printf("widgetd dev: widget %s removed\n", n)
	}
	if len(updated) > 0 {
		s.log.printf("widgetd dev: rebuilt %v in %.0f ms\n", updated, ev.DurationMs)
	}
	s.reports.reset()
}

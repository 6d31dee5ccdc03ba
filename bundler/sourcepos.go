package bundler

// Positions in a built widget traced back to its sources through esbuild's
// source maps, kept in memory (dist/ never holds a map).

import (
	"bytes"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/widgetd/widgetd/bundler/internal/sourcemap"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// Sources maps places in a build's widget scripts (a JS file, or a
// document holding the script inline) to the source file, line and column
// that produced them, so CSP violations, uncaught errors and check findings
// name widgets/<name>/<file>:line:col instead of a bundle offset. It is
// safe for concurrent use; the zero value and nil locate nothing.
type Sources struct {
	root    string
	display displaypath.Base
	entries map[string]string // widget name → its entry, as messages show it
	scripts map[string]*scriptMap
}

// scriptMap is one widget's script and its source map, decoded on first use.
type scriptMap struct {
	js, raw []byte
	once    sync.Once
	m       *sourcemap.Map
}

// newSources collects the source map of each widget's script in bundle.
func (b *Builder) newSources(bundle *bundleResult) *Sources {
	s := &Sources{root: b.root, display: b.display, entries: map[string]string{}, scripts: map[string]*scriptMap{}}
	for _, w := range b.widgets {
		name := w.Config.Name
		s.entries[name] = b.displayPath(w.Entry)
		js, m := bundle.files[bundle.js[name]], bundle.files[bundle.js[name]+".map"]
		if js != nil && m != nil {
			s.scripts[name] = &scriptMap{js: bytes.TrimSpace(js.Contents), raw: m.Contents}
		}
	}
	return s
}

// Locate returns the source position of the 1-based line and column
// (UTF-16 units, as browsers report them) in text, which is the widget's
// script file or a document holding it inline (as served: scripts injected
// before it are fine). The Diagnostic has File, Line, Column and, when the
// map holds the source, the source line. ok is false when the place is not
// in the widget's script or its map says nothing about it.
func (s *Sources) Locate(widget string, text []byte, line, col int) (diag.Diagnostic, bool) {
	off, ok := sourcemap.Offset(text, line-1, max(col-1, 0))
	if !ok {
		return diag.Diagnostic{}, false
	}
	return s.LocateOffset(widget, text, off)
}

// LocateOffset is Locate for a byte offset in text.
func (s *Sources) LocateOffset(widget string, text []byte, off int) (diag.Diagnostic, bool) {
	if s == nil {
		return diag.Diagnostic{}, false
	}
	sm := s.scripts[widget]
	if sm == nil {
		return diag.Diagnostic{}, false
	}
	script := sm.js
	start := bytes.Index(text, script)
	if start < 0 {
		// Inline, the document holds the script with "</script" and "<!--"
		// escaped; positions before the first escape are the same.
		script = escapeInlineScript(sm.js)
		start = bytes.Index(text, script)
	}
	if start < 0 || off < start || off >= start+len(script) {
		return diag.Diagnostic{}, false
	}
	sm.once.Do(func() { sm.m, _ = sourcemap.Decode(sm.raw) })
	line, col := sourcemap.LineColumn(script, off-start)
	p, ok := sm.m.Lookup(line, col)
	if !ok {
		return diag.Diagnostic{}, false
	}
	src := sm.m.Sources[p.Source]
	lineText := sm.m.LineText(p.Source, p.Line)
	if lineText == "" {
		lineText = s.readLine(src, p.Line)
	}
	return diag.Diagnostic{File: s.sourceName(src), Line: p.Line + 1, Column: p.Column + 1, Source: lineText}, true
}

// readLine is line (zero-based) of a map's source file, read from disk (the
// build's maps hold no sources' text), or "" for a virtual module or a file
// that cannot be read.
func (s *Sources) readLine(src string, line int) string {
	if isVirtual(src) {
		return ""
	}
	data, err := readBounded(filepath.Join(s.root, filepath.FromSlash(path.Join(outBase, assetsDir, filepath.ToSlash(src)))))
	if err != nil {
		return ""
	}
	return sourcemap.Line(string(data), line)
}

// isVirtual reports whether a map's source names a module of a plugin
// namespace ("widgetd-bridge:…") rather than a file.
func isVirtual(src string) bool {
	ns, _, ok := strings.Cut(src, ":")
	return ok && len(ns) > 1 && !strings.ContainsAny(ns, `/\.`)
}

// sourceName shows a map's source as messages name files: relative to the
// working directory; the widget's entry for its generated entry and inline
// scripts; "widgetd bridge: …" for the client bridge.
func (s *Sources) sourceName(src string) string {
	if isVirtual(src) {
		ns, rest, _ := strings.Cut(src, ":")
		switch ns {
		case bridgeNamespace:
			file, _, _ := strings.Cut(rest, resolveDirMark)
			return "widgetd bridge: " + file
		case entryNamespace:
			if e, ok := s.entries[rest]; ok {
				return e
			}
		case inlineScriptNamespace:
			name, _, _ := strings.Cut(rest, ":")
			if e, ok := s.entries[name]; ok {
				return e
			}
		}
		return src
	}
	rel := path.Join(outBase, assetsDir, filepath.ToSlash(src))
	return s.display.Show(filepath.Join(s.root, filepath.FromSlash(rel)))
}

// Package check owns the build-level rules of `widgetd check`, the audit a
// store review would run before anyone submits: it loads a build (a dist/
// folder, or sources assembled in memory), scans every widget's HTML, JS and
// CSS with real tokenizers for the URLs they load and for eval, and checks
// them and the widget's resource metadata against the CSP, ChatGPT and MCP
// Apps rules. Each finding carries a stable rule ID (docs/check.md).
//
// Tool-level rules live in assets/audit, which a server can run without
// esbuild; this package reuses its Finding and Severity types.
package check

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/diag"
)

// Default budgets.
const (
	// DefaultInlineBudget is the largest self-contained widget document, in
	// bytes, before size-inline-budget warns: the whole document travels in
	// every resources/read answer, as JSON, uncompressed.
	DefaultInlineBudget = 512 << 10
	// DefaultTransferBudget is the largest compressed total a widget's
	// first render may transfer (HTML plus every file it loads), before
	// size-transfer-budget warns.
	DefaultTransferBudget = 1 << 20
)

// Options configures a check run. Zero values take the defaults.
type Options struct {
	// InlineBudget is the inline document budget in bytes.
	InlineBudget int64
	// TransferBudget is the per-widget transfer budget in bytes.
	TransferBudget int64
}

// Input is a build to check: its manifest and the bytes of the files the
// current widgets use.
type Input struct {
	// Manifest is the build's manifest.
	Manifest *assets.Manifest
	// Files maps dist/-relative paths to identity bytes.
	Files map[string][]byte
	// ConfigDir, when known, maps a widget name to the folder of its
	// widget.json, for fix messages.
	ConfigDir map[string]string
	// SourceDirs, when known, maps a widget name to the folder of its
	// sources; with Metafile it lets URL findings name the source
	// file:line:col where the URL was written.
	SourceDirs map[string]string
	// Metafile is esbuild's metafile JSON for the build, when known; it
	// lets js-eval name the module that brought eval in, and URL findings
	// the source file that wrote the URL.
	Metafile string
	// Root is the folder the metafile's input paths are relative to.
	Root string
	// BuildWarnings are the warnings of a source build; those of the
	// build's own limits (a Code set) become findings.
	BuildWarnings []diag.Diagnostic
	// Sources, when known, traces a finding's place in a built script to
	// the source file, line and column (esbuild's source maps).
	Sources *bundler.Sources
}

// Report is the result of a check run.
type Report struct {
	// Widgets are the names of the widgets checked.
	Widgets []string `json:"widgets"`
	// Findings are sorted by subject, then file, offset and rule.
	Findings []audit.Finding `json:"findings"`
}

// Count returns how many findings have severity s.
func (r *Report) Count(s audit.Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Failed reports whether the report fails a check: any error, or with
// strict any warning.
func (r *Report) Failed(strict bool) bool {
	return r.Count(audit.Error) > 0 || (strict && r.Count(audit.Warning) > 0)
}

// Run checks every current widget of in.
func Run(ctx context.Context, in *Input, opts Options) (*Report, error) {
	if in == nil || in.Manifest == nil {
		return nil, fmt.Errorf("check: no manifest")
	}
	if opts.InlineBudget <= 0 {
		opts.InlineBudget = DefaultInlineBudget
	}
	if opts.TransferBudget <= 0 {
		opts.TransferBudget = DefaultTransferBudget
	}
	rep := &Report{Widgets: []string{}, Findings: []audit.Finding{}}
	fileInfo := map[string]assets.File{}
	for _, f := range in.Manifest.Files {
		fileInfo[f.Path] = f
	}
	for i := range in.Manifest.Widgets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w := &in.Manifest.Widgets[i]
		rep.Widgets = append(rep.Widgets, w.Name)
		wc := &widgetCheck{in: in, opts: opts, w: w, files: fileInfo}
		wc.run()
		wc.traceToSources()
		rep.Findings = append(rep.Findings, wc.out...)
	}
	rep.Findings = append(rep.Findings, limitWarnings(in.BuildWarnings)...)
	sort.SliceStable(rep.Findings, func(i, j int) bool {
		a, b := rep.Findings[i], rep.Findings[j]
		if a.Subject != b.Subject {
			return a.Subject < b.Subject
		}
		if a.File != b.File {
			return locationLess(a.File, b.File)
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return a.Rule < b.Rule
	})
	return rep, nil
}

// locationLess orders finding files, which may end in ":line:col" (a
// source position), by path and then numerically by line and column.
func locationLess(a, b string) bool {
	ap, al, ac := splitLocation(a)
	bp, bl, bc := splitLocation(b)
	if ap != bp {
		return ap < bp
	}
	if al != bl {
		return al < bl
	}
	return ac < bc
}

// splitLocation splits "path:line:col" into its parts; a file without a
// numeric line and column is all path.
func splitLocation(s string) (path string, line, col int) {
	rest, colText, ok := cutLast(s)
	if !ok {
		return s, 0, 0
	}
	p, lineText, ok := cutLast(rest)
	l, err1 := strconv.Atoi(lineText)
	c, err2 := strconv.Atoi(colText)
	if !ok || err1 != nil || err2 != nil {
		return s, 0, 0
	}
	return p, l, c
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

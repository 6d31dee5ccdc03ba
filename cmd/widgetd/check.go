package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/check"
	"github.com/widgetd/widgetd/cmd/widgetd/internal/mcplist"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/fixture"
	"github.com/widgetd/widgetd/typesgen"
)

// checkOutput is the --json form of a check run.
type checkOutput struct {
	OK          bool              `json:"ok"`
	Source      string            `json:"source,omitempty"`
	Widgets     []string          `json:"widgets,omitempty"`
	Counts      map[string]int    `json:"counts,omitempty"`
	Findings    []audit.Finding   `json:"findings"`
	Error       string            `json:"error,omitempty"`
	Diagnostics []diag.Diagnostic `json:"diagnostics,omitempty"`
	Server      *serverOutput     `json:"server,omitempty"`
}

// checkFlags are the flags of `widgetd check`.
type checkFlags struct {
	distDir, widgetsDir, root, publicURL string
	mcpURL                               string
	asJSON, strict, types                bool
	opts                                 check.Options
	// server is what --mcp read, once run has audited the server.
	server *serverOutput
}

// runCheck implements `widgetd check`: it runs the build-level audit over a
// dist/ folder, or over sources assembled in memory, and prints one line per
// finding. Exit codes: 0 clean, 1 errors (or warnings with --strict) or a
// build that cannot be loaded, 2 usage.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, code, ok := parseCheckFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	source, err := f.chooseSource(stdout, stderr)
	if err == nil && source == "" {
		return exitError
	}
	if err == nil && f.types {
		if f.distDir != "" {
			fmt.Fprintln(stderr, "widgetd check: --types checks sources; it cannot be combined with --dist")
			return exitUsage
		}
		progress := progressWriter(stderr, f.asJSON)
		if !generatedTypesFresh(ctx, f.root, f.widgetsDir, stderr, progress) || !typeCheck(ctx, "check", f.root, f.widgetsDir, stderr, progress) {
			return exitError
		}
	}
	var rep *check.Report
	if err == nil {
		rep, err = f.run(ctx)
	}
	if err != nil {
		printCheckError(stdout, stderr, source, err, f.asJSON)
		return exitError
	}
	failed := rep.Failed(f.strict)
	printCheckReport(stdout, stderr, source, f.server, rep, failed, f.asJSON)
	if ctx.Err() != nil || failed {
		return exitError
	}
	return exitOK
}

// parseCheckFlags parses and validates check's flags; when ok is false the
// command returns code.
func parseCheckFlags(args []string, stdout, stderr io.Writer) (f checkFlags, code int, ok bool) {
	fs := newFlagSet("check", "",
		"Runs the audit a store review would: CSP coverage of every URL the widgets load,\n"+
			"resource metadata, widget domain, eval, sizes and HTML validity. Without --dist,\n"+
			"widget sources are assembled in memory first. Prints one line per finding:\n"+
			"  widget: rule-id: severity: message (how to fix)\n"+
			"Rules are documented in docs/check.md. Exit status: 0 clean, 1 errors\n"+
			"(or warnings with --strict), 2 usage. --dist excludes --widgets and --public-url.\n"+
			"--mcp also audits a running server's tools and cross-checks them with the build.\n", stdout, stderr)
	fs.StringVar(&f.distDir, "dist", "", "check this built dist/ `dir`")
	projectFlags(fs, &f.root, &f.widgetsDir, "check the widget sources in this `dir`, assembled in memory (dist/ is not touched)")
	fs.StringVar(&f.publicURL, "public-url", "", "with sources: the `URL` dist/ will be served from, as for widgetd build")
	fs.StringVar(&f.mcpURL, "mcp", "", "also audit the tools of the MCP server running at this streamable HTTP `URL` and cross-check its widget resources with the build")
	fs.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	fs.BoolVar(&f.strict, "strict", false, "fail on warnings too")
	fs.BoolVar(&f.types, "types", false, "also type-check the sources with the project's tsc --noEmit (node_modules/typescript), after checking that each "+typesgen.FileName+" matches its server's tools")
	fs.Int64Var(&f.opts.InlineBudget, "budget-inline", check.DefaultInlineBudget, "largest inline widget document in `bytes`")
	fs.Int64Var(&f.opts.TransferBudget, "budget-transfer", check.DefaultTransferBudget, "largest compressed transfer per widget in `bytes`")
	if code, ok := fs.parse(args); !ok {
		return f, code, false
	}
	if f.distDir != "" && (f.widgetsDir != "" || f.publicURL != "") {
		fmt.Fprintln(stderr, "widgetd check: --dist checks a finished build; it cannot be combined with --widgets or --public-url")
		return f, exitUsage, false
	}
	if f.mcpURL != "" {
		if err := mcplist.ValidateEndpoint(f.mcpURL); err != nil {
			fmt.Fprintf(stderr, "widgetd check: --mcp: %v\n", err)
			return f, exitUsage, false
		}
	}
	if f.opts.InlineBudget <= 0 || f.opts.TransferBudget <= 0 {
		fmt.Fprintln(stderr, "widgetd check: budgets must be positive byte counts")
		return f, exitUsage, false
	}
	return f, exitOK, true
}

// chooseSource returns "dist" or "sources", the build check reads. With
// neither --dist nor --widgets it is the sources when the project's widgets
// folder exists, else its output folder (setting f.distDir), else "" after
// saying so (an error, as build's for a missing widgets folder; with
// --json also as the JSON report on stdout). An error is the project's
// (widgetd.json).
func (f *checkFlags) chooseSource(stdout, stderr io.Writer) (string, error) {
	if f.distDir != "" {
		return "dist", nil
	}
	if f.widgetsDir != "" {
		return "sources", nil
	}
	widgets, out, err := projectDirs(f.root)
	if err != nil {
		return "sources", err
	}
	if isDir(widgets) {
		return "sources", nil
	}
	if isDir(out) {
		f.distDir = out
		return "dist", nil
	}
	d := diag.Diagnostic{File: widgets, Message: fmt.Sprintf("widgets folder not found (nor a build in %s); run `widgetd init` to create a project, or pass --root DIR (the project holding it), --widgets DIR or --dist DIR", out)}
	if f.asJSON {
		writeCheckJSON(stdout, checkOutput{OK: false, Findings: []audit.Finding{}, Error: d.Message, Diagnostics: []diag.Diagnostic{d}})
	}
	fmt.Fprintln(stderr, d.String())
	return "", nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// run loads the build (from dist/ or assembled from sources) and audits it,
// and with --mcp the server against it (recording what it read in
// f.server); a build refused on its own limits reports them as findings.
func (f *checkFlags) run(ctx context.Context) (*check.Report, error) {
	var in *check.Input
	var err error
	if f.distDir != "" {
		in, err = check.LoadDist(f.distDir)
	} else {
		// Source maps place findings at source lines, but esbuild hashes
		// them into external JS names: --mcp compares URIs with the
		// server's dist/, so it checks a build without them.
		in, err = check.FromSources(ctx, bundler.Options{Root: f.root, WidgetsDir: f.widgetsDir, PublicURL: f.publicURL, NoCompress: true,
			SourceMaps: f.mcpURL == ""})
	}
	if findings, ok := check.LimitFindings(err); ok {
		return &check.Report{Widgets: []string{}, Findings: findings}, nil
	}
	if err != nil {
		return nil, err
	}
	if f.distDir == "" {
		if err := checkFixtures(in.ConfigDir); err != nil {
			return nil, err
		}
	}
	rep, err := check.Run(ctx, in, f.opts)
	if err != nil {
		return nil, checkRunError{err}
	}
	if f.mcpURL != "" {
		findings, server, err := auditServer(ctx, f.mcpURL, in)
		if err != nil {
			return nil, err
		}
		rep.Findings, f.server = append(rep.Findings, findings...), server
	}
	return rep, nil
}

// fixtureError is the widgets' fixtures that do not load: the sources
// build, but widgetd dev and widgetd test would refuse them.
type fixtureError struct{ diags *diag.Error }

func (e fixtureError) Error() string { return e.diags.Error() }
func (e fixtureError) Unwrap() error { return e.diags }

// checkFixtures loads the fixtures of every widget (name → folder) the way
// widgetd dev and widgetd test do, and returns every file's first problem
// at file:line:col, widgets in name order.
func checkFixtures(dirs map[string]string) error {
	names := slices.Sorted(maps.Keys(dirs))
	var all diag.Error
	for _, name := range names {
		_, err := fixture.Load(filepath.FromSlash(dirs[name]))
		if err == nil {
			continue
		}
		if diags := diag.FromError(err); len(diags) > 0 {
			all.Diagnostics = append(all.Diagnostics, diags...)
		} else {
			all.Diagnostics = append(all.Diagnostics, diag.Diagnostic{File: dirs[name], Message: err.Error()})
		}
	}
	if len(all.Diagnostics) == 0 {
		return nil
	}
	return fixtureError{&all}
}

// checkRunError is an audit that failed to run (not a build that failed to
// load); it is reported as such, without the JSON report.
type checkRunError struct{ error }

func (e checkRunError) Unwrap() error { return e.error }

// printCheckError reports a build that could not be loaded (its
// diagnostics, or the error), or an audit that could not run.
func printCheckError(stdout, stderr io.Writer, source string, err error, asJSON bool) {
	var runErr checkRunError
	if errors.As(err, &runErr) {
		fmt.Fprintf(stderr, "widgetd check: %v\n", runErr.error)
		return
	}
	diags := diag.FromError(err)
	if asJSON {
		writeCheckJSON(stdout, checkOutput{OK: false, Source: source, Findings: []audit.Finding{}, Error: err.Error(), Diagnostics: diags})
	}
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(stderr, d.String())
		}
		if errors.As(err, new(fixtureError)) {
			fmt.Fprintln(stderr, "widgetd check: fixtures do not load in widgetd dev and widgetd test; fix the errors above first")
		} else {
			fmt.Fprintln(stderr, "widgetd check: the widgets do not build; fix the errors above first")
		}
	} else {
		fmt.Fprintf(stderr, "widgetd check: %v\n", err)
	}
}

// printCheckReport prints the findings, one line each and a count, or the
// JSON report. server is what --mcp read, or nil.
func printCheckReport(stdout, stderr io.Writer, source string, server *serverOutput, rep *check.Report, failed, asJSON bool) {
	if asJSON {
		writeCheckJSON(stdout, checkOutput{OK: !failed, Source: source, Widgets: rep.Widgets, Findings: rep.Findings, Server: server,
			Counts: map[string]int{"error": rep.Count(audit.Error), "warning": rep.Count(audit.Warning), "info": rep.Count(audit.Info)}})
		return
	}
	for _, f := range rep.Findings {
		fmt.Fprintln(stdout, f.String())
	}
	if server != nil {
		source += fmt.Sprintf(", %d tool(s) from %s", len(server.Tools), server.Endpoint)
	}
	fmt.Fprintf(stderr, "widgetd check: %d widget(s) from %s: %d error(s), %d warning(s)\n",
		len(rep.Widgets), source, rep.Count(audit.Error), rep.Count(audit.Warning))
}

func writeCheckJSON(w io.Writer, v checkOutput) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil && !errors.Is(err, io.ErrClosedPipe) {
		fmt.Fprintf(w, `{"ok":false,"error":%q}`+"\n", err.Error())
	}
}

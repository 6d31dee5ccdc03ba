package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/check"
)

// checkOutput is the --json form of a check run.
type checkOutput struct {
	OK          bool                 `json:"ok"`
	Source      string               `json:"source,omitempty"`
	Widgets     []string             `json:"widgets,omitempty"`
	Counts      map[string]int       `json:"counts,omitempty"`
	Findings    []audit.Finding      `json:"findings"`
	Error       string               `json:"error,omitempty"`
	Diagnostics []bundler.Diagnostic `json:"diagnostics,omitempty"`
}

// runCheck implements `widgetd check`: it runs the build-level audit over a
// dist/ folder, or over sources assembled in memory, and prints one line per
// finding. Exit codes: 0 clean, 1 errors (or warnings with --strict) or a
// build that cannot be loaded, 2 usage.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		distDir, widgetsDir, root, publicURL string
		asJSON, strict                       bool
		opts                                 check.Options
	)
	fs.StringVar(&distDir, "dist", "", "check this built dist/ folder")
	fs.StringVar(&widgetsDir, "widgets", "", "check these widget sources, assembled in memory (dist/ is not touched)")
	fs.StringVar(&root, "root", "", "project root holding widgetd.json (default: current directory)")
	fs.StringVar(&publicURL, "public-url", "", "with sources: the URL dist/ will be served from, as for widgetd build")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fs.BoolVar(&strict, "strict", false, "fail on warnings too")
	types := fs.Bool("types", false, "also type-check the sources with the project's tsc --noEmit (node_modules/typescript)")
	fs.Int64Var(&opts.InlineBudget, "budget-inline", check.DefaultInlineBudget, "largest inline widget document in `bytes`")
	fs.Int64Var(&opts.TransferBudget, "budget-transfer", check.DefaultTransferBudget, "largest compressed transfer per widget in `bytes`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: widgetd check [--dist DIR | --widgets DIR] [--types] [--json] [--strict] [--budget-inline BYTES] [--budget-transfer BYTES]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Runs the audit a store review would: CSP coverage of every URL the widgets load,")
		fmt.Fprintln(stderr, "resource metadata, widget domain, eval, sizes and HTML validity. Without --dist,")
		fmt.Fprintln(stderr, "widget sources are assembled in memory first. Prints one line per finding:")
		fmt.Fprintln(stderr, "  widget: rule-id: severity: message (how to fix)")
		fmt.Fprintln(stderr, "Rules are documented in docs/check.md. Exit status: 0 clean, 1 errors")
		fmt.Fprintln(stderr, "(or warnings with --strict), 2 usage.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	if distDir != "" && (widgetsDir != "" || publicURL != "") {
		fmt.Fprintln(stderr, "widgetd check: --dist checks a finished build; it cannot be combined with --widgets or --public-url")
		return exitUsage
	}
	if opts.InlineBudget <= 0 || opts.TransferBudget <= 0 {
		fmt.Fprintln(stderr, "widgetd check: budgets must be positive byte counts")
		return exitUsage
	}

	source := "sources"
	if distDir == "" && widgetsDir == "" {
		// Default: sources when a widgets folder exists, else ./dist.
		base := root
		if base == "" {
			base = "."
		}
		pc, _ := bundler.LoadProjectConfig(base)
		wd := pc.WidgetsDir
		if wd == "" {
			wd = "widgets"
		}
		if !filepath.IsAbs(wd) {
			wd = filepath.Join(base, wd)
		}
		if st, err := os.Stat(wd); err != nil || !st.IsDir() {
			d := pc.OutDir
			if d == "" {
				d = "dist"
			}
			if !filepath.IsAbs(d) {
				d = filepath.Join(base, d)
			}
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				distDir = d
			} else {
				fmt.Fprintln(stderr, "widgetd check: no widgets/ or dist/ here; pass --widgets DIR or --dist DIR")
				return exitUsage
			}
		}
	}

	if *types {
		if distDir != "" {
			fmt.Fprintln(stderr, "widgetd check: --types checks sources; it cannot be combined with --dist")
			return exitUsage
		}
		if !typeCheck(ctx, "check", root, widgetsDir, stderr) {
			return exitError
		}
	}
	var in *check.Input
	var err error
	if distDir != "" {
		source = "dist"
		in, err = check.LoadDist(distDir)
	} else {
		in, err = check.FromSources(ctx, bundler.Options{Root: root, WidgetsDir: widgetsDir, PublicURL: publicURL, NoCompress: true})
	}
	var rep *check.Report
	if findings, ok := check.LimitFindings(err); ok {
		// Refused on the build's own limits: report them as findings.
		rep, err = &check.Report{Widgets: []string{}, Findings: findings}, nil
	}
	if err != nil {
		diags := bundler.AsDiagnostics(err)
		if asJSON {
			writeCheckJSON(stdout, checkOutput{OK: false, Source: source, Findings: []audit.Finding{}, Error: err.Error(), Diagnostics: diags})
		}
		if len(diags) > 0 {
			for _, d := range diags {
				fmt.Fprintln(stderr, d.String())
			}
			fmt.Fprintln(stderr, "widgetd check: the widgets do not build; fix the errors above first")
		} else {
			fmt.Fprintf(stderr, "widgetd check: %v\n", err)
		}
		return exitError
	}
	if rep == nil {
		if rep, err = check.Run(ctx, in, opts); err != nil {
			fmt.Fprintf(stderr, "widgetd check: %v\n", err)
			return exitError
		}
	}
	failed := rep.Failed(strict)
	if asJSON {
		writeCheckJSON(stdout, checkOutput{OK: !failed, Source: source, Widgets: rep.Widgets, Findings: rep.Findings,
			Counts: map[string]int{"error": rep.Count(audit.Error), "warning": rep.Count(audit.Warning), "info": rep.Count(audit.Info)}})
	} else {
		for _, f := range rep.Findings {
			fmt.Fprintln(stdout, f.String())
		}
		fmt.Fprintf(stderr, "widgetd check: %d widget(s) from %s: %d error(s), %d warning(s)\n",
			len(rep.Widgets), source, rep.Count(audit.Error), rep.Count(audit.Warning))
	}
	if ctx.Err() != nil {
		return exitError
	}
	if failed {
		return exitError
	}
	return exitOK
}

func writeCheckJSON(w io.Writer, v checkOutput) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil && !errors.Is(err, io.ErrClosedPipe) {
		fmt.Fprintf(w, `{"ok":false,"error":%q}`+"\n", err.Error())
	}
}

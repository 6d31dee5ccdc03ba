package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/check"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/cachedir"
	"github.com/widgetd/widgetd/internal/displaypath"
)

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "", "Prints the widgetd version.\n", stdout, stderr)
	if code, ok := fs.parse(args); !ok {
		return code
	}
	fmt.Fprintf(stdout, "widgetd %s\n", version)
	return exitOK
}

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("build", "",
		"Bundles every widgets/<name>/ (widget.json + sources) into content-hashed,\n"+
			"precompressed UI resources and writes dist/ with manifest.json atomically.\n", stdout, stderr)
	var opts bundler.Options
	var asJSON bool
	projectFlags(fs, &opts.Root, &opts.WidgetsDir, widgetsHelp)
	fs.StringVar(&opts.OutDir, "out", "", "output `dir` (default: dist)")
	fs.StringVar(&opts.PublicURL, "public-url", "", "`URL` dist/ is served from; makes JS/CSS external and adds its origin to the CSP")
	fs.IntVar(&opts.Retain, "retain", 0, "`number` of builds to keep in dist/ so cached templates keep loading (default 5)")
	fs.StringVar(&opts.CacheDir, "cache-dir", "", "`dir` where compressed files are cached by content hash (default: "+cachedir.Default()+")")
	fs.BoolVar(&opts.NoCache, "no-cache", false, "do not use the compression cache folder (the previous dist/ is still reused)")
	fs.BoolVar(&opts.PrecompressHTML, "precompress-html", false, "also write .br/.gz of the widget HTML documents (hosts read them via resources/read; only useful when the HTML is served over HTTP)")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	fs.BoolVar(&opts.Strict, "strict", false, "fail when a widget's HTML is over the budget (widgetd.json htmlBudget, default 1 MiB) instead of warning")
	types := fs.Bool("types", false, "type-check first with the project's tsc --noEmit (node_modules/typescript); type errors fail the build")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	progress := progressWriter(stderr, asJSON)
	opts.Progress = buildProgress(progress, "build")
	if *types && !typeCheck(ctx, "build", opts.Root, opts.WidgetsDir, stderr, progress) {
		fmt.Fprintln(stderr, "widgetd: dist/ was not changed")
		return exitError
	}
	res, err := buildAndAudit(ctx, opts)
	if err != nil {
		if asJSON {
			writeJSON(stdout, map[string]any{"ok": false, "error": err.Error(), "diagnostics": diag.FromError(err)})
		}
		printError(stderr, err)
		return exitError
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, w.String())
	}
	if asJSON {
		writeJSON(stdout, map[string]any{"ok": true, "result": res})
		return exitOK
	}
	printSummary(stdout, res)
	return exitOK
}

// buildAndAudit builds the project with check's undeclared-origin rules
// (csp-undeclared-*) as the build's audit: each load from an origin a
// widget's csp does not declare is a warning at the source line:col. The
// build succeeds, but the author hears at once what the host will block;
// an up-to-date build repeats the warnings from its record.
func buildAndAudit(ctx context.Context, opts bundler.Options) (*bundler.Result, error) {
	opts.Audit = auditUndeclaredLoads
	return bundler.Build(ctx, opts)
}

// auditUndeclaredLoads reads the build just written back and returns its
// undeclared loads as warnings; dist/ is written, so it never fails it.
func auditUndeclaredLoads(ctx context.Context, b *bundler.Builder, res *bundler.Result) []diag.Diagnostic {
	in, err := check.ForBuild(b, res)
	if err != nil {
		return []diag.Diagnostic{{File: displaypath.Show(res.OutDir), Warning: true,
			Message: fmt.Sprintf("could not read the build back to check its URLs against the CSP (%v); run widgetd check", err)}}
	}
	warnings, _ := check.UndeclaredLoads(ctx, in) // only cancellation fails it
	return warnings
}

func printError(w io.Writer, err error) {
	if diags := diag.FromError(err); len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(w, d.String())
		}
		n := 0
		for _, d := range diags {
			if !d.Warning {
				n++
			}
		}
		fmt.Fprintf(w, "widgetd: build failed with %d error(s); dist/ was not changed\n", n)
		return
	}
	fmt.Fprintf(w, "widgetd: %v\n", err)
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// printSummary prints a Vite-like table of every widget's files.
func printSummary(w io.Writer, res *bundler.Result) {
	out := displaypath.Show(res.OutDir)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, ws := range res.Widgets {
		fmt.Fprintf(w, "\n%s  %s\n", ws.Name, ws.URI)
		if ws.Bridge != "" {
			fmt.Fprintf(w, "  bridge: %s (%s)\n", ws.Bridge, ws.BridgeReason)
		}
		for _, f := range ws.Files {
			fmt.Fprintf(tw, "  %s/%s\t%s\t│ br %s\t│ gzip %s\t\n", out, f.Path, kb(f.Size), kbOrDash(f.Brotli), kbOrDash(f.Gzip))
		}
		tw.Flush()
	}
	if b := res.Bridge; b != nil {
		fmt.Fprintf(w, "\nclient bridge, full level: %s │ br %s │ gzip %s\n", kb(int64(b.Raw)), kb(int64(b.Brotli)), kb(int64(b.Gzip)))
	}
	if res.UpToDate {
		fmt.Fprintf(w, "\n%d widget(s) up to date: no input changed since the build that wrote %s (checked in %s)\n",
			len(res.Widgets), out, res.Duration.Round(1e5))
		return
	}
	fmt.Fprintf(w, "\n%d widget(s) built in %s (%d encodings compressed, %d reused)\n",
		len(res.Widgets), res.Duration.Round(1e6), res.Compressed, res.Reused)
}

func kb(n int64) string { return fmt.Sprintf("%.2f kB", float64(n)/1000) }

func kbOrDash(n int64) string {
	if n == 0 {
		return "-"
	}
	return kb(n)
}

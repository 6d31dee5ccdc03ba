package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/internal/atomicfile"
	"github.com/widgetd/widgetd/widgettest"
)

// exitNoBrowser is widgetd test's exit code when no Chromium was found, so
// CI can tell a missing browser from a failing widget.
const exitNoBrowser = 3

// runTest renders every widget × fixture × host in headless Chromium.
func runTest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("test", "",
		"Renders every widget × fixture (widgets/<name>/fixtures/*.json) × host (by\n"+
			"default mcp-apps, the real AppBridge, and chatgpt, ui/* plus window.openai;\n"+
			"--host adds chatgpt-legacy, window.openai only, and claude) in headless Chromium, and\n"+
			"fails on an uncaught error, a CSP violation, a missing handshake, an unmet\n"+
			"expectation of the fixture, or a screenshot that differs from its baseline\n"+
			"(widgets/<name>/fixtures/screenshots/<fixture>.<host>.png, mcp-apps as .mcp.png;\n"+
			"a missing baseline is written). Exit 1 when a case fails, 3 when no Chromium is found.\n", stdout, stderr)
	var opts widgettest.Options
	var asJSON bool
	var junit, hosts, widgets string
	projectFlags(fs, &opts.Root, &opts.WidgetsDir, widgetsHelp)
	fs.StringVar(&opts.Chrome, "chrome", "", "Chromium or Chrome `binary` (default: $CHROME_PATH, else chromium, google-chrome… on PATH)")
	fs.StringVar(&hosts, "host", "", "these `hosts`, comma-separated: mcp-apps (alias mcp), chatgpt, chatgpt-legacy, claude (default: mcp-apps,chatgpt)")
	fs.StringVar(&widgets, "widget", "", "only these `widgets`, comma-separated (default: all)")
	fs.BoolVar(&opts.Update, "update", false, "accept this run's screenshots as the new baselines")
	fs.BoolVar(&opts.NoScreenshots, "no-screenshots", false, "skip the screenshot comparison")
	fs.Float64Var(&opts.Threshold, "threshold", widgettest.DefaultThreshold, "largest `fraction` of pixels that may differ from a baseline")
	fs.IntVar(&opts.Parallel, "parallel", 2, "`number` of cases rendered at once")
	fs.StringVar(&junit, "junit", "", "also write a JUnit XML report to this `file`")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	opts.Hosts = splitList(hosts)
	for _, h := range opts.Hosts {
		if _, ok := devserver.CanonicalHost(h); !ok {
			fmt.Fprintf(stderr, "widgetd test: --host %q: hosts are %s (mcp is mcp-apps)\n", h, strings.Join(devserver.PreviewHosts(), ", "))
			return exitUsage
		}
	}
	opts.Widgets = splitList(widgets)
	if !asJSON {
		opts.Log = stdout
	}
	progressf(progressWriter(stderr, asJSON), "widgetd test: building the widgets and starting Chromium…")
	rep, err := widgettest.RunReport(ctx, opts)
	if err != nil {
		var be *widgettest.BuildError
		switch {
		case errors.Is(err, widgettest.ErrNoChrome):
			fmt.Fprintf(stderr, "widgetd test: %v\n", err)
			return exitNoBrowser
		case errors.As(err, &be):
			fmt.Fprintln(stderr, strings.Join(be.Diagnostics, "\n"))
			fmt.Fprintln(stderr, "widgetd test: the build failed; nothing was rendered")
			return exitError
		default:
			fmt.Fprintf(stderr, "widgetd test: %v\n", err)
			return exitError
		}
	}
	if junit != "" {
		data, err := rep.JUnit()
		if err == nil {
			err = atomicfile.Write(junit, data)
		}
		if err != nil {
			fmt.Fprintf(stderr, "widgetd test: write JUnit report: %v\n", err)
			return exitError
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		fmt.Fprintf(stdout, "%d passed, %d failed (%d cases in %.1fs)\n", rep.Passed, rep.Failed, len(rep.Cases), rep.DurationMs/1000)
	}
	if rep.Failed > 0 {
		return exitError
	}
	return exitOK
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

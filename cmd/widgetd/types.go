package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/internal/atomicfile"
	"github.com/widgetd/widgetd/typesgen"
)

// typesFile is the name `widgetd types` writes into the widgets folder.
const typesFile = "widgetd.d.ts"

// runTypes writes the bridge's TypeScript declarations into a widget project,
// so editors and tsc know `import … from "widgetd"` and "widgetd/react";
// with --mcp or --from also each widget's tools.gen.d.ts, the types of the
// tools that show it.
func runTypes(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("types", "",
		"Writes the declarations of the \"widgetd\" and \"widgetd/react\" modules (the\n"+
			"client bridge every widget gets) so editors and tsc complete and check them.\n"+
			"With --mcp or --from, also writes widgets/<name>/"+typesgen.FileName+": the input and\n"+
			"output types of every tool that shows the widget, from the tools' JSON Schemas.\n", stdout, stderr)
	widgets := fs.String("widgets", "widgets", "widgets `dir` to write "+typesFile+" into")
	out := fs.String("out", "", "`file` to write instead (- for standard output)")
	check := fs.Bool("check", false, "write nothing; exit 1 if the file is missing or differs (for CI)")
	var src typesgen.Source
	fs.StringVar(&src.MCP, "mcp", "", "also write each widget's "+typesgen.FileName+" from the tools of the server at this streamable HTTP `URL`")
	fs.StringVar(&src.From, "from", "", "also write each widget's "+typesgen.FileName+" from the tools of this Go main `package`, built and run without network")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	tools := src != (typesgen.Source{})
	if tools && (src.Validate() != nil || *out != "") {
		fmt.Fprintln(stderr, "widgetd types: give one of --mcp and --from, without --out")
		return exitUsage
	}
	if code := writeBridgeTypes(*widgets, *out, *check, stdout, stderr); code != exitOK || !tools {
		return code
	}
	return writeToolTypes(ctx, src, *widgets, *check, stdout, stderr)
}

// writeBridgeTypes writes (or, with check, compares) widgetd.d.ts: into
// the widgets folder, or out ("-": standard output).
func writeBridgeTypes(widgets, out string, check bool, stdout, stderr io.Writer) int {
	dts, err := bridge.DTS()
	if err != nil {
		fmt.Fprintf(stderr, "widgetd types: %v\n", err)
		return exitError
	}
	if out == "-" {
		stdout.Write(dts)
		return exitOK
	}
	path := out
	if path == "" {
		path = filepath.Join(widgets, typesFile)
	}
	if check {
		have, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(have, dts) {
			fmt.Fprintf(stderr, "widgetd types: %s is missing or out of date; run widgetd types\n", path)
			return exitError
		}
		return exitOK
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "widgetd types: folder %s does not exist\n", filepath.Dir(path))
		return exitError
	}
	if err := atomicfile.Write(path, dts); err != nil {
		fmt.Fprintf(stderr, "widgetd types: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return exitOK
}

// writeToolTypes lists the tools of src and writes (or, with check,
// compares) each widget's tools.gen.d.ts.
func writeToolTypes(ctx context.Context, src typesgen.Source, widgets string, check bool, stdout, stderr io.Writer) int {
	if src.From != "" {
		pkg, err := typesgen.ResolvePackage(ctx, ".", src.From)
		if err != nil {
			fmt.Fprintf(stderr, "widgetd types: %v\n", err)
			return exitError
		}
		src.From = pkg
	}
	plan, err := typesgen.Regenerate(ctx, src, ".", widgets)
	if err != nil {
		fmt.Fprintf(stderr, "widgetd types: %v\n", err)
		return exitError
	}
	for _, w := range plan.NoFolder {
		fmt.Fprintf(stderr, "widgetd types: warning: a tool shows widget %q, which has no folder in %s; its types were not written\n", w, widgets)
	}
	if check {
		for _, p := range slices.Sorted(maps.Keys(plan.Write)) {
			fmt.Fprintf(stderr, "widgetd types: %s is missing or out of date; run widgetd types %s\n", p, src)
		}
		for _, p := range plan.Remove {
			fmt.Fprintf(stderr, "widgetd types: %s names no widget a tool shows any more; run widgetd types %s\n", p, src)
		}
		if plan.Stale() {
			return exitError
		}
		return exitOK
	}
	return applyPlan(plan, stdout, stderr)
}

// applyPlan writes and removes the files of plan.
func applyPlan(plan *typesgen.Plan, stdout, stderr io.Writer) int {
	paths := slices.Sorted(maps.Keys(plan.Write))
	for _, p := range paths {
		if err := atomicfile.Write(p, plan.Write[p]); err != nil {
			fmt.Fprintf(stderr, "widgetd types: %v\n", err)
			return exitError
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	for _, p := range plan.Remove {
		if err := os.Remove(p); err != nil {
			fmt.Fprintf(stderr, "widgetd types: %v\n", err)
			return exitError
		}
		fmt.Fprintf(stdout, "removed %s\n", p)
	}
	for _, p := range plan.Unchanged {
		fmt.Fprintf(stdout, "unchanged %s\n", p)
	}
	return exitOK
}

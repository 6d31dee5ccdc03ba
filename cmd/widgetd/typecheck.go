package main

import (
	"context"
	"fmt"
	"io"

	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/typecheck"
	"github.com/widgetd/widgetd/typesgen"
)

// typeCheck runs the project's tsc --noEmit for --types (build and check)
// and prints its errors as file:line:col diagnostics. It reports whether the
// widgets type-check; tsc missing is a failure with the command that fixes
// it. A progress line goes to progress (nil: none) first: tsc takes seconds.
func typeCheck(ctx context.Context, cmd, root, widgetsDir string, stderr, progress io.Writer) bool {
	dir, ok := widgetsDirOf(root, widgetsDir, stderr)
	if !ok {
		return false
	}
	progressf(progress, "widgetd %s --types: type-checking %s with tsc --noEmit…", cmd, dir)
	diags, err := typecheck.Run(ctx, dir)
	if err != nil {
		fmt.Fprintf(stderr, "widgetd %s --types: %v\n", cmd, err)
		return false
	}
	errs := 0
	for _, d := range diags {
		fmt.Fprintln(stderr, d.String())
		if !d.Warning {
			errs++
		}
	}
	if errs > 0 {
		fmt.Fprintf(stderr, "widgetd %s --types: %d type error(s) (tsc --noEmit)\n", cmd, errs)
		return false
	}
	return true
}

// generatedTypesFresh lists the tools again from the source each generated
// tools.gen.d.ts records and reports whether every such file matches (no
// generated files: fresh). A stale file is a file:1:1 error.
func generatedTypesFresh(ctx context.Context, root, widgetsDir string, stderr, progress io.Writer) bool {
	dir, ok := widgetsDirOf(root, widgetsDir, stderr)
	if !ok {
		return false
	}
	existing, err := typesgen.Existing(dir)
	if err != nil || len(existing) == 0 {
		return err == nil
	}
	progressf(progress, "widgetd check --types: listing the tools again to compare %d %s file(s)…", len(existing), typesgen.FileName)
	findings, err := typesgen.CheckFolder(ctx, dir)
	if err != nil {
		fmt.Fprintf(stderr, "widgetd check --types: %v\n", err)
		return false
	}
	for _, f := range findings {
		fmt.Fprintln(stderr, diag.Diagnostic{File: displaypath.Show(f.Path), Line: 1, Column: 1, Message: f.Message}.String())
	}
	if len(findings) > 0 {
		fmt.Fprintf(stderr, "widgetd check --types: %d generated file(s) stale\n", len(findings))
		return false
	}
	return true
}

// widgetsDirOf returns widgetsDir, or when it is empty the widgets folder of
// the project at root; it prints why and reports false when that cannot be
// read.
func widgetsDirOf(root, widgetsDir string, stderr io.Writer) (string, bool) {
	if widgetsDir != "" {
		return widgetsDir, true
	}
	dir, _, err := projectDirs(root)
	if err != nil {
		printError(stderr, err)
		return "", false
	}
	return dir, true
}

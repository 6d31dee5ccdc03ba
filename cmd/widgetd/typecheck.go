package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/typecheck"
)

// typeCheck runs the project's tsc --noEmit for --types (build and check)
// and prints its errors as file:line:col diagnostics. It reports whether the
// widgets type-check; tsc missing is a failure with the command that fixes
// it.
func typeCheck(ctx context.Context, cmd, root, widgetsDir string, stderr io.Writer) bool {
	dir := widgetsDir
	base := root
	if base == "" {
		base = "."
	}
	if dir == "" {
		pc, err := bundler.LoadProjectConfig(base)
		if err != nil {
			printError(stderr, err)
			return false
		}
		dir = pc.WidgetsDir
		if dir == "" {
			dir = "widgets"
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(base, dir)
		}
	}
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

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/widgetd/widgetd/internal/typecheck"
)

// typeCheck runs the project's tsc --noEmit for --types (build and check)
// and prints its errors as file:line:col diagnostics. It reports whether the
// widgets type-check; tsc missing is a failure with the command that fixes
// it. A progress line goes to progress (nil: none) first: tsc takes seconds.
func typeCheck(ctx context.Context, cmd, root, widgetsDir string, stderr, progress io.Writer) bool {
	dir := widgetsDir
	if dir == "" {
		var err error
		if dir, _, err = projectDirs(root); err != nil {
			printError(stderr, err)
			return false
		}
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

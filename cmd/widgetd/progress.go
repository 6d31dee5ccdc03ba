package main

import (
	"fmt"
	"io"
	"os"
)

// Progress lines tell a person at a terminal what a long wait is (tsc,
// starting Chromium, a first build's compression). They go to stderr only
// when it is a terminal and the output is not --json, so scripts, CI logs
// and pipes see exactly the output they did before.

// progressWriter returns where progress lines go: stderr when
// wantProgress says so, else nil (no progress).
func progressWriter(stderr io.Writer, asJSON bool) io.Writer {
	if !wantProgress(isTerminal(stderr), asJSON) {
		return nil
	}
	return stderr
}

// wantProgress decides whether progress lines are printed: on a terminal,
// and never with --json.
func wantProgress(terminal, asJSON bool) bool {
	return terminal && !asJSON
}

// isTerminal reports whether w is a terminal: a character device other
// than the null device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}

// progressf writes one progress line to w; a nil w writes nothing.
func progressf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// buildProgress is bundler.Options.Progress printing to w as cmd's line,
// nil when w is nil.
func buildProgress(w io.Writer, cmd string) func(string) {
	if w == nil {
		return nil
	}
	return func(note string) { progressf(w, "widgetd %s: %s…", cmd, note) }
}

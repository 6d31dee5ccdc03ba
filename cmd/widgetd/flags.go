package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/widgetd/widgetd/bundler"
)

// newFlagSet returns a subcommand's flag set reporting to stderr, whose help
// is the usage line, a blank line, about (whole lines, each ending in "\n"),
// a blank line and the flags.
func newFlagSet(name, usage, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fmt.Fprintln(stderr)
		fmt.Fprint(stderr, about)
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	return fs
}

// projectFlags registers --root and --widgets, the project flags of every
// command that builds the widgets (build, dev, test); widgetsHelp is
// --widgets' help text.
func projectFlags(fs *flag.FlagSet, root, widgets *string, widgetsHelp string) {
	fs.StringVar(root, "root", "", "project root holding widgetd.json (default: current directory)")
	fs.StringVar(widgets, "widgets", "", widgetsHelp)
}

// widgetsHelp is the --widgets help of the commands that build.
const widgetsHelp = "folder with one folder per widget (default: widgets)"

// projectDirs returns the widgets and output folders of the project at root
// ("" for the current directory) as the bundler resolves them from
// widgetd.json and the defaults, so every command agrees with the build. A
// folder under the root is returned below root as given (relative when root
// is), for messages; an error in widgetd.json is returned.
func projectDirs(root string) (widgets, out string, err error) {
	b, err := bundler.New(bundler.Options{Root: root})
	if err != nil {
		return "", "", err
	}
	defer b.Close()
	base := root
	if base == "" {
		base = "."
	}
	under := func(p string) string {
		if rel, err := filepath.Rel(b.Root(), p); err == nil && filepath.IsLocal(rel) {
			return filepath.Join(base, rel)
		}
		return p
	}
	return under(b.WidgetsDir()), under(b.OutDir()), nil
}

// parseArgs parses a subcommand's flags and refuses positional arguments,
// reporting on the flag set's output; when ok is false the command returns
// code (0 for -h, 2 for usage errors).
func parseArgs(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		return flagExit(err), false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "widgetd %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return exitUsage, false
	}
	return exitOK, true
}

// flagExit maps a flag parse error to an exit code (help is success).
func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

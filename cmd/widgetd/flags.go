package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"

	"github.com/widgetd/widgetd/bundler"
)

// cmdFlags is a subcommand's flag set with what its help needs beyond the
// flags. Every command's help is written by writeHelp from the flag set, so
// the usage line and the flag list cannot omit a flag, and every command's
// help has the same shape.
type cmdFlags struct {
	*flag.FlagSet
	// operands is the synopsis of the positional arguments ("[dir]",
	// "<name>"), "" when the command takes none.
	operands string
	// about is the description: whole lines, each ending in "\n".
	about          string
	stdout, stderr io.Writer
}

// newFlagSet returns a subcommand's flag set. Help asked for (-h, --help,
// widgetd help <command>) is written to stdout; a flag error is reported on
// stderr with the usage line.
func newFlagSet(name, operands, about string, stdout, stderr io.Writer) *cmdFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors and help itself
	fs.Usage = func() {}
	return &cmdFlags{FlagSet: fs, operands: operands, about: about, stdout: stdout, stderr: stderr}
}

// parse parses the command's flags and refuses positional arguments; when
// ok is false the command returns code (0 after help, 2 for usage errors).
func (f *cmdFlags) parse(args []string) (code int, ok bool) {
	if err := f.Parse(args); err != nil {
		return f.flagExit(err), false
	}
	if f.NArg() > 0 {
		return f.usageError(fmt.Sprintf("unexpected argument %q", f.Arg(0))), false
	}
	return exitOK, true
}

// parseOneArg parses flags given before and after one optional positional
// argument (widgetd init [dir] [flags]).
func (f *cmdFlags) parseOneArg(args []string) (arg string, code int, ok bool) {
	if err := f.Parse(args); err != nil {
		return "", f.flagExit(err), false
	}
	if f.NArg() > 0 {
		arg = f.Arg(0)
		if err := f.Parse(f.Args()[1:]); err != nil {
			return "", f.flagExit(err), false
		}
		if f.NArg() > 0 {
			return "", f.usageError(fmt.Sprintf("unexpected argument %q", f.Arg(0))), false
		}
	}
	return arg, exitOK, true
}

// flagExit handles a parse error: help asked for is written to stdout
// (exit 0); any other error is reported on stderr with the usage line
// (exit 2), naming flags as --name as the help does.
func (f *cmdFlags) flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		f.writeHelp(f.stdout)
		return exitOK
	}
	return f.usageError(singleDashRE.ReplaceAllString(err.Error(), "$1--$2"))
}

// singleDashRE finds the -name the flag package's errors give a flag.
var singleDashRE = regexp.MustCompile(`(defined: |argument: |for flag |value "[^"]*" for )-([^-\s:][^\s:]*)`)

// usageError reports a usage mistake on stderr with the usage line and
// returns exitUsage.
func (f *cmdFlags) usageError(msg string) int {
	fmt.Fprintf(f.stderr, "widgetd %s: %s\n", f.Name(), msg)
	f.usageHint()
	return exitUsage
}

// usageHint writes the usage line and where the full help is.
func (f *cmdFlags) usageHint() {
	fmt.Fprintln(f.stderr, f.usageLine())
	fmt.Fprintf(f.stderr, "Run 'widgetd help %s' for what each flag does.\n", f.Name())
}

// projectFlags registers --root and --widgets, the project flags of every
// command that builds the widgets (build, check, dev, test); widgetsHelp is
// --widgets' help text.
func projectFlags(fs *cmdFlags, root, widgets *string, widgetsHelp string) {
	fs.StringVar(root, "root", "", "project root `dir` holding widgetd.json (default: current directory)")
	fs.StringVar(widgets, "widgets", "", widgetsHelp)
}

// widgetsHelp is the --widgets help of the commands that build.
const widgetsHelp = "`dir` with one folder per widget (default: widgets)"

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

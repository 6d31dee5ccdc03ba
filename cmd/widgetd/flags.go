package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

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

// helpWidth is the column help text is wrapped at.
const helpWidth = 80

// writeHelp writes the command's help: the usage line listing every flag,
// a blank line, about, and each flag as --name VALUE with its text and
// default below it.
func (f *cmdFlags) writeHelp(w io.Writer) {
	fmt.Fprintln(w, f.usageLine())
	fmt.Fprintln(w)
	fmt.Fprint(w, f.about)
	first := true
	f.VisitAll(func(fl *flag.Flag) {
		if first {
			fmt.Fprintln(w)
			fmt.Fprintln(w, "Flags:")
			first = false
		}
		fmt.Fprintf(w, "  %s\n", flagSynopsis(fl))
		text := flagText(fl)
		for _, line := range wrapWords(text, helpWidth-8) {
			fmt.Fprintf(w, "        %s\n", line)
		}
	})
}

// usageLine is "Usage: widgetd <name> <operands> [--flag VALUE]…", wrapped
// at helpWidth with continuation lines aligned under the first item.
func (f *cmdFlags) usageLine() string {
	prefix := "Usage: widgetd " + f.Name()
	items := []string{}
	if f.operands != "" {
		items = append(items, f.operands)
	}
	f.VisitAll(func(fl *flag.Flag) { items = append(items, "["+flagSynopsis(fl)+"]") })
	var b strings.Builder
	b.WriteString(prefix)
	col := len(prefix)
	indent := strings.Repeat(" ", len(prefix)+1)
	for _, it := range items {
		if col+1+len(it) > helpWidth && col > len(prefix) {
			b.WriteString("\n" + indent[:len(indent)-1])
			col = len(prefix)
		}
		b.WriteString(" " + it)
		col += 1 + len(it)
	}
	return b.String()
}

// flagSynopsis is "--name" for a boolean flag, else "--name VALUE", VALUE
// the back-quoted word of the flag's text in capitals.
func flagSynopsis(fl *flag.Flag) string {
	name, _ := flag.UnquoteUsage(fl)
	if name == "" {
		return "--" + fl.Name
	}
	return "--" + fl.Name + " " + strings.ToUpper(name)
}

// flagText is the flag's text without back quotes, with its default when
// that is not the zero value.
func flagText(fl *flag.Flag) string {
	_, text := flag.UnquoteUsage(fl)
	switch fl.DefValue {
	case "", "0", "false", "0s":
		return text
	}
	if g, ok := fl.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case string:
			return fmt.Sprintf("%s (default %q)", text, fl.DefValue)
		case bool:
			return fmt.Sprintf("%s (default true; --%s=false turns it off)", text, fl.Name)
		}
	}
	return fmt.Sprintf("%s (default %s)", text, fl.DefValue)
}

// wrapWords splits text into lines of at most width columns, breaking at
// spaces (a longer word gets a line of its own).
func wrapWords(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
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

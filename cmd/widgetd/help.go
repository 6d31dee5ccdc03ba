package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// A command's help is generated from its flag set, so the usage line and
// the flag list name every flag, as --name VALUE, in one format for every
// command.

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

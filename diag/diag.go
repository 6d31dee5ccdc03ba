// Package diag owns widgetd's diagnostics: a problem located in a user's
// file (file:line:col, the source line and a caret), the error that carries
// them, and the stable codes of the build's own limits. The build, widgetd
// check, the TypeScript check and the CLI all report through it, so one
// problem prints the same way whichever of them finds it.
package diag

import (
	"errors"
	"fmt"
	"strings"
)

// Diagnostic is one problem found in a user's input, located in a file.
type Diagnostic struct {
	// File is the path of the file, relative to the working directory when possible.
	File string `json:"file"`
	// Line and Column are 1-based; zero when unknown.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Message says what is wrong and, where it can, how to fix it.
	Message string `json:"message"`
	// Source is the offending source line, when known.
	Source string `json:"source,omitempty"`
	// Warning is true for problems that do not fail the build.
	Warning bool `json:"warning,omitempty"`
	// Code is a stable identifier of the problem when it is one of the
	// build's own limits (CodeOutsideProject, CodeSourceTooLarge,
	// CodeHTMLBudget); widgetd check reports it as the rule of that name.
	Code string `json:"code,omitempty"`
	// Notes point at other places the problem involves (esbuild's "The
	// opening "h1" tag is here"), each printed as a located line of its own.
	Notes []Note `json:"notes,omitempty"`
}

// Note is a located remark on a Diagnostic: the second place a problem
// involves, such as the tag a closing tag does not match.
type Note struct {
	// File, Line, Column and Source are as in Diagnostic.
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Message is the remark.
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
}

// String formats the diagnostic as file:line:col: message, followed by the
// source line and a caret when the source is known, then each note the
// same way as file:line:col: note: message.
func (d Diagnostic) String() string {
	var b strings.Builder
	severity := "error"
	if d.Warning {
		severity = "warning"
	}
	writeLocated(&b, d.File, d.Line, d.Column, severity, d.Message, d.Source)
	for _, n := range d.Notes {
		b.WriteString("\n")
		writeLocated(&b, n.File, n.Line, n.Column, "note", n.Message, n.Source)
	}
	return b.String()
}

// Location is "file:line:col", with the line and column only when known:
// where String starts.
func (d Diagnostic) Location() string {
	s := d.File
	if d.Line > 0 {
		s += fmt.Sprintf(":%d", d.Line)
		if d.Column > 0 {
			s += fmt.Sprintf(":%d", d.Column)
		}
	}
	return s
}

// At returns a diagnostic located at byte offset off of src, the
// file named file: its line, column and source line, the way the build
// locates its own diagnostics. Tools that find problems in sources (widgetd
// check) use it so their positions agree with the build's.
func At(file string, src []byte, off int) Diagnostic {
	line, col, text := LineCol(src, off)
	return Diagnostic{File: file, Line: line, Column: col, Source: text}
}

// writeLocated writes file:line:col: kind: message and, when source is
// known, the source line with a caret under the column.
func writeLocated(b *strings.Builder, file string, line, col int, kind, message, source string) {
	b.WriteString(file)
	if line > 0 {
		fmt.Fprintf(b, ":%d", line)
		if col > 0 {
			fmt.Fprintf(b, ":%d", col)
		}
	}
	fmt.Fprintf(b, ": %s: %s", kind, message)
	if source != "" {
		src := strings.ReplaceAll(source, "\t", " ")
		fmt.Fprintf(b, "\n    %s", src)
		if col > 0 && col <= len(src)+1 {
			fmt.Fprintf(b, "\n    %s^", strings.Repeat(" ", col-1))
		}
	}
}

// Error reports one or more diagnostics that failed a build. Its message lists
// each diagnostic on its own line(s).
type Error struct {
	// Diagnostics are the problems, in the order found.
	Diagnostics []Diagnostic
}

// Error lists the diagnostics, one per line (with source lines and carets).
func (e *Error) Error() string {
	parts := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		parts[i] = d.String()
	}
	return strings.Join(parts, "\n")
}

// Errorf returns an *Error holding one diagnostic at file:line:col whose
// message is format applied to args.
func Errorf(file string, line, col int, format string, args ...any) *Error {
	return &Error{Diagnostics: []Diagnostic{{File: file, Line: line, Column: col, Message: fmt.Sprintf(format, args...)}}}
}

// FromError returns the diagnostics inside err, or nil when err carries none.
func FromError(err error) []Diagnostic {
	var e *Error
	if errors.As(err, &e) {
		return e.Diagnostics
	}
	return nil
}

// LineCol converts a byte offset in data to a 1-based line and column, and
// returns that line's text.
func LineCol(data []byte, offset int) (line, col int, text string) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(data) {
		offset = len(data)
	}
	line = 1
	start := 0
	for i := 0; i < offset; i++ {
		if data[i] == '\n' {
			line++
			start = i + 1
		}
	}
	end := start
	for end < len(data) && data[end] != '\n' && data[end] != '\r' {
		end++
	}
	return line, offset - start + 1, string(data[start:end])
}

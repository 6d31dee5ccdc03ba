package contain

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// Error is a refusal by one of the build's limits (outside the project,
// not a regular file, too large, over the HTML budget): Code is its diag
// code, which `widgetd check` reports as a rule.
type Error struct {
	Code, Msg string
}

// Error returns the refusal's message.
func (e *Error) Error() string { return e.Msg }

// LimitCode returns name when it is a limit code (esbuild carries it as the
// message's plugin name), else "".
func LimitCode(name string) string {
	switch name {
	case diag.CodeOutsideProject, diag.CodeSourceTooLarge, diag.CodeHTMLBudget, diag.CodeNotRegularFile:
		return name
	}
	return ""
}

// CodeOf is the limit code of err, or "".
func CodeOf(err error) string {
	var le *Error
	if errors.As(err, &le) {
		return le.Code
	}
	return ""
}

// Diag is a diagnostic for a limit error at file.
func Diag(file string, line, col int, err error) *diag.Error {
	return &diag.Error{Diagnostics: []diag.Diagnostic{{File: file, Line: line, Column: col, Message: err.Error(), Code: CodeOf(err)}}}
}

// DefaultMaxSourceSize is the largest source file a build reads (50 MiB),
// unless widgetd.json "maxSourceSize" says otherwise.
const DefaultMaxSourceSize = 50 << 20

// checkSize refuses a file over the source size limit before anyone reads it.
func (c *Reader) checkSize(spec, real string) error {
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() || st.Size() <= c.maxSize {
		return nil
	}
	return c.tooLarge(spec, st.Size(), false)
}

// MaxConfigSize is the largest widget.json, widgetd.json or .env read.
const MaxConfigSize = 1 << 20

// ReadConfigFile reads a JSON config file: only a regular file (a named
// pipe would block the build forever, a device would be read without end)
// of at most MaxConfigSize, refused before it is opened or read.
func ReadConfigFile(file string) ([]byte, error) {
	data, err := regularfile.Read(file, MaxConfigSize)
	var tl *regularfile.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s is %s; a config file is at most %s", file, regularfile.FormatBytes(tl.Size), regularfile.FormatBytes(MaxConfigSize))
	}
	return data, err
}

// PathErrCause is the cause inside a *fs.PathError (which names the path
// the message already names), or err itself.
func PathErrCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

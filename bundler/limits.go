package bundler

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/bundler/strictjson"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// The build's own limits: a code per kind of refusal (widgetd check reports
// them as rules), the source and config size guards, and the validation of
// the widgetd.json fields that set them.

// limitError is a refusal by one of the build's limits.
type limitError struct {
	code, msg string
}

func (e *limitError) Error() string { return e.msg }

// limitCode returns name when it is a limit code (esbuild carries it as the
// message's plugin name), else "".
func limitCode(name string) string {
	switch name {
	case diag.CodeOutsideProject, diag.CodeSourceTooLarge, diag.CodeHTMLBudget, diag.CodeNotRegularFile:
		return name
	}
	return ""
}

// codeOf is the limit code of err, or "".
func codeOf(err error) string {
	var le *limitError
	if errors.As(err, &le) {
		return le.code
	}
	return ""
}

// limitDiag is a diagnostic for a limit error at file.
func limitDiag(file string, line, col int, err error) *diag.Error {
	return &diag.Error{Diagnostics: []diag.Diagnostic{{File: file, Line: line, Column: col, Message: err.Error(), Code: codeOf(err)}}}
}

// defaultMaxSourceSize is the largest source file a build reads (50 MiB),
// unless widgetd.json "maxSourceSize" says otherwise.
const defaultMaxSourceSize = 50 << 20

// checkSize refuses a file over the source size limit before anyone reads it.
func (c *containment) checkSize(spec, real string) error {
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() || st.Size() <= c.maxSize {
		return nil
	}
	return c.tooLarge(spec, st.Size(), false)
}

// formatBytes writes n as B, KiB or MiB.
func formatBytes(n int64) string { return regularfile.FormatBytes(n) }

// checkLimits validates the project file's allowOutside, maxSourceSize and
// htmlBudget.
func checkLimits(doc *strictjson.Doc, dir string, pc *projectConfig) error {
	for i, o := range pc.AllowOutside {
		field := fmt.Sprintf("allowOutside[%d]", i)
		if o == "" {
			return doc.ErrPath(field, "allowOutside entries are folders, relative to %s; this one is empty", layout.ProjectConfigFile)
		}
		p := o
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(o))
		}
		st, err := os.Stat(p)
		if err != nil {
			return doc.ErrPath(field, "allowOutside %q: %v", o, unwrapPathErr(err))
		}
		if !st.IsDir() {
			return doc.ErrPath(field, "allowOutside %q is a file; name the folder that holds it", o)
		}
	}
	if pc.MaxSourceSize < 0 {
		return doc.ErrPath("maxSourceSize", "maxSourceSize must be a positive number of bytes (default %d, 50 MiB)", defaultMaxSourceSize)
	}
	if pc.HTMLBudget < 0 {
		return doc.ErrPath("htmlBudget", "htmlBudget must be a positive number of bytes (default %d, 1 MiB)", defaultHTMLBudget)
	}
	return nil
}

// maxConfigSize is the largest widget.json or widgetd.json read.
const maxConfigSize = 1 << 20

// readConfigFile reads a JSON config file: only a regular file (a named
// pipe would block the build forever, a device would be read without end)
// of at most maxConfigSize, refused before it is opened or read.
func readConfigFile(file string) ([]byte, error) {
	data, err := regularfile.Read(file, maxConfigSize)
	var tl *regularfile.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s is %s; a config file is at most %s", file, formatBytes(tl.Size), formatBytes(maxConfigSize))
	}
	return data, err
}

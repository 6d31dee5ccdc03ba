package contain

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// ReadFile is the one place a build reads a source file's bytes: an import
// with a Vite suffix (?raw, ?url, ?inline), a module a plugin rewrites or
// compiles (new URL(…, import.meta.url), .vue, .svelte, a stylesheet for
// PostCSS or Tailwind), an HTML entry, a file of public/. It refuses, before
// opening anything, a path whose real path is outside the allowed folders
// and anything but a regular file (opening a FIFO blocks; /dev/zero never
// ends); it opens the real path without blocking, checks again what it
// opened, and reads at most the size limit (New's maxSize) whatever the file's size
// claims (/proc files claim 0). spec is how the source named the file ("" for
// "this import"); named, when not "", is the path before symlinks.
//
// esbuild's own loads of the "file" namespace are checked the same way by
// the containment plugin (Check) and then read by esbuild: a plugin that
// returned their contents would switch off esbuild's handling of import
// attributes (with {type: "text"}) and change its loader choice.
func (c *Reader) ReadFile(spec, p, named string) ([]byte, error) {
	real, err := c.realFile(p)
	if err != nil {
		return nil, err
	}
	if err := c.Check(spec, p, named); err != nil {
		return nil, err
	}
	data, err := ReadRegular(spec, real, c.maxSize)
	if tl := (*regularfile.TooLargeError)(nil); errors.As(err, &tl) {
		return nil, c.tooLarge(spec, tl.Size, tl.Size == c.maxSize+1) // max+1: found by reading
	}
	return data, err
}

// ReadRegular reads the regular file p through internal/regularfile (the
// one reader that never blocks on or drains a FIFO, socket or device: it
// checks the file's type before opening it, opens it without blocking, and
// checks what it opened again), at most limit bytes. A file that is not
// regular is a limit error naming spec; one over limit is a
// *regularfile.TooLargeError for the caller to word. Config files
// (widget.json, widgetd.json, .env) are read through it too.
func ReadRegular(spec, p string, limit int64) ([]byte, error) {
	data, err := regularfile.Read(p, limit)
	if nr := (*regularfile.NotRegularError)(nil); errors.As(err, &nr) {
		return nil, notRegularError(spec, nr.Kind)
	}
	return data, err
}

// checkRegular refuses the file at real (a path with no symlinks) when it is
// a FIFO, socket or device; a folder or a missing file is left to the
// caller, which reports those as it does today.
func checkRegular(spec, real string) error {
	st, err := os.Stat(real)
	if err != nil || st.IsDir() {
		return nil
	}
	return regularOnly(spec, st.Mode())
}

// regularOnly is the error for a file of mode m that is not a regular file.
func regularOnly(spec string, m fs.FileMode) error {
	if kind := regularfile.Kind(m); kind != "" {
		return notRegularError(spec, kind)
	}
	return nil
}

// notRegularError is the limit error for the file spec names, which is kind
// ("a named pipe (FIFO)") instead of a regular file.
func notRegularError(spec, kind string) error {
	what := "this import"
	if spec != "" {
		what = strconv.Quote(spec)
	}
	return &Error{diag.CodeNotRegularFile, fmt.Sprintf("%s is %s, not a regular file; a build reads only regular files (a FIFO or device could block it or never end); replace it with a regular file", what, kind)}
}

// tooLarge is the error for a file of size bytes over maxSourceSize; read
// says the size was found by reading (the file claimed less).
func (c *Reader) tooLarge(spec string, size int64, read bool) error {
	what := "this import"
	if spec != "" {
		what = strconv.Quote(spec)
	}
	is := "is " + regularfile.FormatBytes(size)
	if read {
		is = "holds more than " + regularfile.FormatBytes(c.maxSize) + " (its size as listed says less)"
	}
	return &Error{diag.CodeSourceTooLarge, fmt.Sprintf("%s %s, over the %s source file limit; a widget bundles what it imports into every page, so a file this big is almost certainly a mistake (load large data at run time instead), or raise \"maxSourceSize\" (bytes) in %s",
		what, is, regularfile.FormatBytes(c.maxSize), layout.ProjectConfigFile)}
}

// Message is err as an esbuild message: a limit's code rides as the
// plugin name (diag.go turns it back into the diagnostic's code), and
// esbuild places it at the import that named the file.
func Message(err error) api.Message {
	return api.Message{Text: err.Error(), PluginName: CodeOf(err)}
}

// LoadError is an OnLoad result that fails with err at the import.
func LoadError(err error) api.OnLoadResult {
	return api.OnLoadResult{Errors: []api.Message{Message(err)}}
}

// IsLimitError reports whether err is a refusal by the build's limits
// (outside the project, not a regular file, too large), which a reader
// reports at the import rather than leaving the file to esbuild.
func IsLimitError(err error) bool {
	return CodeOf(err) != ""
}

// ReadBounded reads a file the build consults but does not bundle (a
// tsconfig or package.json, the up-to-date record's inputs, the previous
// dist/'s manifest) the same bounded way: regular files only, at most
// DefaultMaxSourceSize bytes, so no file a pull request commits (a FIFO
// named package.json) can block a build or exhaust its memory.
func ReadBounded(p string) ([]byte, error) {
	return ReadRegular(filepath.Base(p), p, DefaultMaxSourceSize)
}

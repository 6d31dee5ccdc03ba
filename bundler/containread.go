package bundler

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/evanw/esbuild/pkg/api"
)

// readFile is the one place a build reads a source file's bytes: an import
// with a Vite suffix (?raw, ?url, ?inline), a module a plugin rewrites or
// compiles (new URL(…, import.meta.url), .vue, .svelte, a stylesheet for
// PostCSS or Tailwind), an HTML entry, a file of public/. It refuses, before
// opening anything, a path whose real path is outside the allowed folders
// and anything but a regular file (opening a FIFO blocks; /dev/zero never
// ends); it opens the real path without blocking, checks again what it
// opened, and reads at most maxSourceSize bytes whatever the file's size
// claims (/proc files claim 0). spec is how the source named the file ("" for
// "this import"); named, when not "", is the path before symlinks.
//
// esbuild's own loads of the "file" namespace are checked the same way by
// the containment plugin (check) and then read by esbuild: a plugin that
// returned their contents would switch off esbuild's handling of import
// attributes (with {type: "text"}) and change its loader choice.
func (c *containment) readFile(spec, p, named string) ([]byte, error) {
	real, err := c.realFile(p)
	if err != nil {
		return nil, err
	}
	if err := c.check(spec, p, named); err != nil {
		return nil, err
	}
	data, err := readRegular(spec, real, c.maxSize)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > c.maxSize {
		return nil, c.tooLarge(spec, int64(len(data)), true)
	}
	return data, nil
}

// readRegular reads the regular file p, at most limit+1 bytes (a caller
// that gets more than limit refuses the file), without ever blocking on or
// draining a FIFO, socket or device: it checks the file's type before
// opening it, opens it without blocking, and checks what it opened again.
// Config files (widget.json, widgetd.json, .env) are read through it too.
func readRegular(spec, p string, limit int64) ([]byte, error) {
	if err := checkRegularOrDir(spec, p, false); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regularOnly(spec, st.Mode()); err != nil {
		return nil, err // swapped for a FIFO or device after the check
	}
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// checkRegular refuses the file at real (a path with no symlinks) when it is
// a FIFO, socket or device; a folder or a missing file is left to the
// caller, which reports those as it does today.
func checkRegular(spec, real string) error {
	return checkRegularOrDir(spec, real, true)
}

// checkRegularOrDir refuses what is not a regular file at real, a folder too
// unless dirOK; a missing file is not its business (nil).
func checkRegularOrDir(spec, real string, dirOK bool) error {
	st, err := os.Stat(real)
	if err != nil {
		return nil
	}
	if dirOK && st.IsDir() {
		return nil
	}
	return regularOnly(spec, st.Mode())
}

// regularOnly is the error for a file of mode m that is not a regular file.
func regularOnly(spec string, m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeCharDevice != 0:
		kind = "a character device"
	case m&fs.ModeDevice != 0:
		kind = "a block device"
	case m.IsDir():
		kind = "a folder"
	}
	what := "this import"
	if spec != "" {
		what = strconv.Quote(spec)
	}
	return &limitError{CodeNotRegularFile, fmt.Sprintf("%s is %s, not a regular file; a build reads only regular files (a FIFO or device could block it or never end); replace it with a regular file", what, kind)}
}

// tooLarge is the error for a file of size bytes over maxSourceSize; read
// says the size was found by reading (the file claimed less).
func (c *containment) tooLarge(spec string, size int64, read bool) error {
	what := "this import"
	if spec != "" {
		what = strconv.Quote(spec)
	}
	is := "is " + formatBytes(size)
	if read {
		is = "holds more than " + formatBytes(c.maxSize) + " (its size as listed says less)"
	}
	return &limitError{CodeSourceTooLarge, fmt.Sprintf("%s %s, over the %s source file limit; a widget bundles what it imports into every page, so a file this big is almost certainly a mistake (load large data at run time instead), or raise \"maxSourceSize\" (bytes) in %s",
		what, is, formatBytes(c.maxSize), ProjectConfigFile)}
}

// limitMessage is err as an esbuild message: a limit's code rides as the
// plugin name (diag.go turns it back into the diagnostic's code), and
// esbuild places it at the import that named the file.
func limitMessage(err error) api.Message {
	return api.Message{Text: err.Error(), PluginName: codeOf(err)}
}

// loadError is an OnLoad result that fails with err at the import.
func loadError(err error) api.OnLoadResult {
	return api.OnLoadResult{Errors: []api.Message{limitMessage(err)}}
}

// isLimitError reports whether err is a refusal by the build's limits
// (outside the project, not a regular file, too large), which a reader
// reports at the import rather than leaving the file to esbuild.
func isLimitError(err error) bool {
	return codeOf(err) != ""
}

// containedPlugins is the plugin list of every esbuild run of a build (the
// main one, a file bundled on its own, Tailwind's module graph pass): the
// containment first, so it checks every file esbuild is about to load
// before any other plugin or esbuild itself reads it.
func (b *Builder) containedPlugins(plugins ...api.Plugin) []api.Plugin {
	return append([]api.Plugin{b.contain.plugin()}, plugins...)
}

// readBounded reads a file the build consults but does not bundle (a
// tsconfig or package.json, the up-to-date record's inputs, the previous
// dist/'s manifest) the same bounded way: regular files only, at most
// defaultMaxSourceSize bytes, so no file a pull request commits (a FIFO
// named package.json) can block a build or exhaust its memory.
func readBounded(p string) ([]byte, error) {
	data, err := readRegular(filepath.Base(p), p, defaultMaxSourceSize)
	if err != nil {
		return nil, err
	}
	if len(data) > defaultMaxSourceSize {
		return nil, fmt.Errorf("%s holds more than %s", p, formatBytes(defaultMaxSourceSize))
	}
	return data, nil
}

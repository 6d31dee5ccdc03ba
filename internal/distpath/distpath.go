// Package distpath holds the one rule for the file paths a manifest names
// inside dist/: the bundler applies it to a previous build it retains, the
// registry to every file it loads, so neither trusts a manifest more than the
// other.
package distpath

import (
	"io/fs"
	"strings"
)

// Valid reports whether p is a path a manifest may name: fs.ValidPath (clean,
// relative, slash-separated, no "." or ".." elements, no empty ones), not
// dist/ itself ("."), and no backslash or NUL, which fs.ValidPath allows but a
// file on disk or a URL path must not hold.
func Valid(p string) bool {
	return fs.ValidPath(p) && p != "." && !strings.ContainsAny(p, "\\\x00")
}

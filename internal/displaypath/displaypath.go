// Package displaypath shows file paths in messages the one way widgetd does:
// relative to the working directory when the path is at or below it, else as
// given. bundler, check, devserver and the CLI all print paths through it, so
// a file is named alike in every message.
package displaypath

import (
	"os"
	"path/filepath"
)

// Base is the folder paths are shown relative to. The zero Base shows every
// path as given.
type Base struct {
	dir  string
	real string // dir with its symlinks followed, when that differs
}

// WorkingDir returns the Base of the process's working directory, read once
// here; a caller that prints many paths (a build's diagnostics) keeps it
// rather than asking the operating system per message. When the working
// directory cannot be read, paths are shown as given.
func WorkingDir() Base {
	wd, err := os.Getwd()
	if err != nil {
		return Base{}
	}
	b := Base{dir: wd}
	// Reached through a symlink (macOS's /tmp, a linked checkout), the
	// build names files by their real paths: show those relative too.
	if real, err := filepath.EvalSymlinks(wd); err == nil && real != wd {
		b.real = real
	}
	return b
}

// Show returns p relative to the base when p lies at or below it (the base
// itself is "."), and p unchanged otherwise: a path outside the base, a
// relative p, or an empty one.
func (b Base) Show(p string) string {
	if b.dir == "" {
		return p
	}
	for _, dir := range []string{b.dir, b.real} {
		if dir == "" {
			continue
		}
		if rel, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}

// Show shows p relative to the working directory, read at this call: for
// the occasional message. See Base.Show.
func Show(p string) string {
	return WorkingDir().Show(p)
}

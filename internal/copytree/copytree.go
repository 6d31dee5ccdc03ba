// Package copytree copies a folder to another place, leaving out the
// folders a caller names (node_modules, dist, fixtures). The tests of
// bundler, devserver, e2e and cmd/widgetd and the benchmarks under bench/
// each walked a tree with a copy loop of their own; they differ only in what
// they leave out and in how a few of them place a file.
package copytree

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Options says what Copy leaves out and how it places a file.
type Options struct {
	// Skip, when set, is asked about every folder below src (rel is its
	// path relative to src); the folder and all below it are left out when
	// it returns true.
	Skip func(rel string, d fs.DirEntry) bool
	// Place, when set, is offered every entry that is not a folder (a file
	// or a symbolic link) before Copy copies it; it returns true when it
	// has put the entry at target itself, say as a link.
	Place func(path, target string, d fs.DirEntry) (bool, error)
}

// Copy copies the folder src to dst: folders are made (0755), and every
// other entry, a symbolic link included, is written at its place with the
// contents it reads as (0644), unless Options say otherwise.
func Copy(src, dst string, opts Options) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if opts.Skip != nil && opts.Skip(rel, d) {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		if opts.Place != nil {
			if done, err := opts.Place(p, target, d); done || err != nil {
				return err
			}
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// SkipNamed returns a Skip that leaves out every folder with one of names,
// at any depth.
func SkipNamed(names ...string) func(rel string, d fs.DirEntry) bool {
	return func(_ string, d fs.DirEntry) bool {
		for _, n := range names {
			if d.Name() == n {
				return true
			}
		}
		return false
	}
}

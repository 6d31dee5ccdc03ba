//go:build !linux

package bundler

import "github.com/widgetd/widgetd/internal/displaypath"

// swapDir puts the finished folder tmp in place of dir by two renames; a
// crash between them leaves the previous build in a .old folder beside dir,
// which the next build restores.
func swapDir(tmp, dir string) error { return swapByRename(tmp, dir) }

// lockOut is a no-op where flock is not available.
func lockOut(dir string, display displaypath.Base) (unlock func(), err error) { return func() {}, nil }

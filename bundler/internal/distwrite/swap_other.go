//go:build !linux

package distwrite

import "github.com/widgetd/widgetd/internal/displaypath"

// SwapDir puts the finished folder tmp in place of dir by two renames; a
// crash between them leaves the previous build in a .old folder beside dir,
// which the next build restores.
func SwapDir(tmp, dir string) error { return swapByRename(tmp, dir) }

// LockOut is a no-op where flock is not available.
func LockOut(dir string, display displaypath.Base) (unlock func(), err error) { return func() {}, nil }

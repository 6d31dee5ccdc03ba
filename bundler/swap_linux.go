//go:build linux

package bundler

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// swapDir puts the finished folder tmp in place of dir. When dir exists the
// two are exchanged in one atomic renameat2(RENAME_EXCHANGE), so no reader
// and no crash ever sees dir missing or half-written; the old build then
// sits in tmp and is removed.
func swapDir(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("move build into %s: %w", dir, err)
		}
		return syncDir(filepath.Dir(dir))
	}
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return swapByRename(tmp, dir)
	}
	if err != nil {
		return fmt.Errorf("swap build into %s: %w", dir, err)
	}
	if err := syncDir(filepath.Dir(dir)); err != nil {
		return err
	}
	return os.RemoveAll(tmp)
}

// lockOut takes an exclusive, non-blocking lock beside dir so two builds
// never write the same output at once. The lock dies with the process, and
// its file is removed on unlock, so no .<dir>.lock stays in the project.
// Removing a lock file races with a build that opened it just before: a
// build that locks a file no longer at the path retries with the new one.
func lockOut(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	p := filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".lock")
	for range 10 {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, fmt.Errorf("open lock %s: %w", p, err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, fmt.Errorf("another widgetd build is writing %s (lock %s held); wait for it to finish", displayPath(dir), displayPath(p))
			}
			return nil, fmt.Errorf("lock %s: %w", p, err)
		}
		held, err1 := f.Stat()
		atPath, err2 := os.Stat(p)
		if err1 != nil || err2 != nil || !os.SameFile(held, atPath) {
			// The previous holder removed this file after we opened it.
			f.Close()
			continue
		}
		return func() {
			os.Remove(p)
			unix.Flock(int(f.Fd()), unix.LOCK_UN)
			f.Close()
		}, nil
	}
	return nil, fmt.Errorf("lock %s: the lock file keeps being replaced; is another build running?", displayPath(p))
}

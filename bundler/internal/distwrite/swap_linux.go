//go:build linux

package distwrite

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/widgetd/widgetd/internal/cachedir"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// SwapDir puts the finished folder tmp in place of dir. When dir exists the
// two are exchanged in one atomic renameat2(RENAME_EXCHANGE), so no reader
// and no crash ever sees dir missing or half-written; the old build then
// sits in tmp and is removed.
func SwapDir(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("move build into %s: %w", dir, err)
		}
		return SyncDir(filepath.Dir(dir))
	}
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return swapByRename(tmp, dir)
	}
	if err != nil {
		return fmt.Errorf("swap build into %s: %w", dir, err)
	}
	if err := SyncDir(filepath.Dir(dir)); err != nil {
		return err
	}
	return os.RemoveAll(tmp)
}

// LockOut takes an exclusive, non-blocking lock on dir so two builds never
// write the same output at once. The lock dies with the process. Its file
// lives in the user cache folder (lockPath), not beside dir, so a build
// leaves nothing in the project and does not touch the project folder's
// modification time, which the up-to-date check reads.
func LockOut(dir string, display displaypath.Base) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	p, err := lockPath(dir)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", p, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("another widgetd build is writing %s (lock %s held); wait for it to finish", display.Show(dir), display.Show(p))
		}
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	return func() { unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, nil
}

// lockPath is the lock file of output folder dir: <user cache>/widgetd/locks/
// <hash of dir's absolute path>.lock, or .<dir>.lock beside dir when there
// is no user cache folder.
func lockPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if cache := cachedir.Default(); cache != "" {
		locks := filepath.Join(cache, "locks")
		if err := os.MkdirAll(locks, 0o755); err == nil {
			sum := sha256.Sum256([]byte(abs))
			return filepath.Join(locks, hex.EncodeToString(sum[:16])+".lock"), nil
		}
	}
	return filepath.Join(filepath.Dir(abs), "."+filepath.Base(abs)+".lock"), nil
}

package distwrite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// swapByRename replaces dir with tmp using two renames, for file systems
// without an atomic exchange.
func swapByRename(tmp, dir string) error {
	old := oldDirName(dir)
	os.RemoveAll(old)
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("move old build aside: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return fmt.Errorf("move build into %s: %w", dir, err)
	}
	return os.RemoveAll(old)
}

func oldDirName(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".old")
}

// RecoverInterrupted restores dir from its .old copy when a build using the
// two-rename fallback was killed between the renames, and removes leftover
// temporary folders of killed builds.
func RecoverInterrupted(dir string) {
	old := oldDirName(dir)
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if _, err := os.Stat(old); err == nil {
			os.Rename(old, dir)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-*"))
	for _, m := range matches {
		os.RemoveAll(m)
	}
}

// SyncDir flushes a folder's entries to disk.
func SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

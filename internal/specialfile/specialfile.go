// Package specialfile makes, for tests, the files a reader of user files
// must refuse by name rather than open: a named pipe (an open blocks until
// a writer comes), a Unix socket, a character device (endless) and a
// folder. The tests of every such reader (fixtures, widget.json and
// widgetd.json, files a widget imports) make them the same way here.
package specialfile

import (
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// Maker puts one kind of file at path, replacing what is there.
type Maker func(t testing.TB, path string)

// FIFO makes a named pipe at path.
func FIFO(t testing.TB, path string) {
	t.Helper()
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Socket makes a listening Unix socket at path, closed when t ends.
func Socket(t testing.TB, path string) {
	t.Helper()
	os.Remove(path)
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
}

// SymlinkTo makes a Maker of a symbolic link to target (such as /dev/zero,
// a character device a test cannot make itself).
func SymlinkTo(target string) Maker {
	return func(t testing.TB, path string) {
		t.Helper()
		os.Remove(path)
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
}

// Folder makes an empty folder at path.
func Folder(t testing.TB, path string) {
	t.Helper()
	os.Remove(path)
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

// Within runs read and returns its error, failing t when read has not
// returned within timeout: a reader that opens a named pipe would block
// forever, so the test says so instead of hanging. what names the reader.
func Within(t testing.TB, timeout time.Duration, what string, read func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		t.Fatalf("%s blocked", what)
		return nil
	}
}

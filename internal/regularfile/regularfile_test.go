package regularfile

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRead reads one real file of every kind: only a regular file within
// the limit is read; a named pipe (which would block the open), a socket, a
// character device (endless) and a folder are refused by name, and so is a
// symlink to a named pipe.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.json")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tc := range []struct {
		name, path, want string // want "" means read
	}{
		{"regular", write("ok.json", "{}"), ""},
		{"at the limit", write("limit.json", strings.Repeat("x", 64)), ""},
		{"over the limit", write("big.json", strings.Repeat("x", 65)), "big.json is 65 B; this file is read only up to 64 B"},
		{"named pipe", fifo, "fifo.json is a named pipe (FIFO), not a regular file"},
		{"symlink to a named pipe", link, "link.json is a named pipe (FIFO), not a regular file"},
		{"socket", sock, "s.json is a socket, not a regular file"},
		{"character device", "/dev/zero", "/dev/zero is a character device, not a regular file"},
		{"folder", dir, "is a folder, not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := Read(tc.path, 64)
				done <- err
			}()
			select {
			case err := <-done:
				if tc.want == "" && err != nil {
					t.Fatalf("want read, got %v", err)
				}
				if tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
					t.Fatalf("got %v, want …%s…", err, tc.want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("Read blocked")
			}
		})
	}
	if _, err := Read(filepath.Join(dir, "missing.json"), 64); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

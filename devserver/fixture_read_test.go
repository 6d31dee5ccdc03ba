package devserver

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadFixturesRefusesNonRegular: a fixture (or preview.json) that is a
// named pipe, a socket, a device or over MaxFixtureSize is refused by name
// at once; before, a named pipe blocked widgetd dev and widgetd test
// forever and /dev/zero was read until memory ran out.
func TestLoadFixturesRefusesNonRegular(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
		make             func(t *testing.T, path string)
	}{
		{"named pipe", "fixtures/a.json", "a.json: error: this fixture is a named pipe (FIFO), not a regular file", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"socket", "fixtures/a.json", "a.json: error: this fixture is a socket, not a regular file", func(t *testing.T, p string) {
			l, err := net.Listen("unix", p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
		}},
		{"device", "fixtures/a.json", "a.json: error: this fixture is a character device, not a regular file", func(t *testing.T, p string) {
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		}},
		{"folder", "fixtures/a.json", "a.json: error: this fixture is a folder, not a regular file", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"too large", "fixtures/a.json", "a.json: error: this fixture is 4.0 MiB, over the 4.0 MiB a fixture may be", func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte(`{"description":"`+strings.Repeat("x", MaxFixtureSize)+`"}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"preview.json named pipe", "preview.json", "preview.json: error: this fixture is a named pipe (FIFO), not a regular file", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, FixturesDir), 0o755); err != nil {
				t.Fatal(err)
			}
			tc.make(t, filepath.Join(dir, filepath.FromSlash(tc.file)))
			done := make(chan error, 1)
			go func() {
				_, err := LoadFixtures(dir)
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("got %v\nwant …%s…", err, tc.want)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("LoadFixtures blocked")
			}
		})
	}
}

package bundler

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConfigNotRegularFile builds projects whose widget.json or
// widgetd.json is a named pipe, a socket or a device. Before, a named pipe
// as widget.json blocked the build forever; now each is refused at once by
// name and dist/ is left untouched.
func TestConfigNotRegularFile(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
		make             func(t *testing.T, path string)
	}{
		{"widget.json named pipe", "widgets/w/widget.json", "widget.json is a named pipe (FIFO), not a regular file", mkfifo},
		{"widget.json socket", "widgets/w/widget.json", "widget.json is a socket, not a regular file", mksocket},
		{"widget.json device", "widgets/w/widget.json", "widget.json is a character device, not a regular file", symlinkTo("/dev/zero")},
		{"widgetd.json named pipe", "widgetd.json", "widgetd.json is a named pipe (FIFO), not a regular file", mkfifo},
		{"widgetd.json device", "widgetd.json", "widgetd.json is a character device, not a regular file", symlinkTo("/dev/zero")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{
				"widgets/w/widget.json":    `{"title": "W"}`,
				"widgets/w/index.ts":       `document.body.textContent = "w";`,
				"widgets/good/widget.json": `{"title": "Good"}`,
				"widgets/good/index.ts":    `document.body.textContent = "ok";`,
			})
			dist := filepath.Join(t.TempDir(), "dist")
			mustBuild(t, Options{Root: root, OutDir: dist, NoCompress: true})
			before := treeHash(t, dist)
			tc.make(t, filepath.Join(root, filepath.FromSlash(tc.file)))
			done := make(chan error, 1)
			go func() {
				_, err := Build(context.Background(), Options{Root: root, OutDir: dist, NoCompress: true})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("got %v\nwant …%s…", err, tc.want)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("the build blocked on the file")
			}
			if treeHash(t, dist) != before {
				t.Error("dist/ changed")
			}
		})
	}
}

func mkfifo(t *testing.T, path string) {
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mksocket(t *testing.T, path string) {
	os.Remove(path)
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
}

func symlinkTo(target string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		os.Remove(path)
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
}

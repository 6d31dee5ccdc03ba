package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalStopsBlockedCommand runs the real command (this test binary as
// widgetd) on a project whose tsconfig.json is a named pipe: esbuild's
// resolver opens it and blocks in the kernel, where no context reaches.
// Before, build, check, dev and test then ignored SIGTERM and SIGINT and
// ran until killed; now each exits within the grace period with the
// signal's status, and a previous dist/ is left as it was.
func TestSignalStopsBlockedCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		sig  syscall.Signal
	}{
		{"build SIGTERM", []string{"build"}, syscall.SIGTERM},
		{"build SIGINT", []string{"build"}, syscall.SIGINT},
		{"check SIGTERM", []string{"check"}, syscall.SIGTERM},
		{"dev SIGTERM", []string{"dev", "--addr", "127.0.0.1:0"}, syscall.SIGTERM},
		{"test SIGINT", []string{"test", "--no-screenshots"}, syscall.SIGINT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeProject(t, map[string]string{
				"widgets/w/widget.json": `{"title": "W"}`,
				"widgets/w/index.ts":    `document.body.append("w");`,
			})
			if code, _, errs := runCLI(t, "build", "--root", root); code != exitOK {
				t.Fatalf("first build: %s", errs)
			}
			dist := filepath.Join(root, "dist")
			before := treeSum(t, dist)
			if err := syscall.Mkfifo(filepath.Join(root, "widgets", "w", "tsconfig.json"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := widgetdCmd(t, root, tc.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-exited
			})
			// Let it reach the pipe; it is blocked there from then on (a
			// signal that arrives earlier must stop it just the same).
			time.Sleep(2 * time.Second)
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				exited <- err
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 128+int(tc.sig) {
					t.Fatalf("exit %v, want status %d\nstderr: %s", err, 128+int(tc.sig), stderr.String())
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("still running 20 s after %v\nstderr: %s", tc.sig, stderr.String())
			}
			if !strings.Contains(stderr.String(), "widgetd: stopped by") {
				t.Errorf("stderr does not say why it stopped: %s", stderr.String())
			}
			if treeSum(t, dist) != before {
				t.Error("dist/ changed")
			}
			os.Remove(filepath.Join(root, "widgets", "w", "tsconfig.json"))
		})
	}
}

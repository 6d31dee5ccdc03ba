package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/syncbuf"
)

// TestStopOnSignal drives the signal handling every command runs under
// with real signal values and a command that never returns by itself (a
// read blocked in the kernel, a compiler plugin that never answers): the
// first signal cancels the context; a command still busy signalGrace later,
// or at a second signal, is ended with the shell's status for the signal;
// serve, which drains connections for its own --shutdown-timeout, is ended
// early only by a second signal; a command that returns in time is never
// ended.
func TestStopOnSignal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		hard     bool
		signals  []os.Signal
		returns  bool // the command returns once its context is cancelled
		wantExit int  // 0: exit must not be called
		minWait  time.Duration
	}{
		{"blocked, SIGTERM: ended after the grace", true, []os.Signal{syscall.SIGTERM}, false, 143, signalGrace},
		{"blocked, SIGINT: ended after the grace", true, []os.Signal{os.Interrupt}, false, 130, signalGrace},
		{"blocked, a second signal ends it at once", true, []os.Signal{syscall.SIGTERM, os.Interrupt}, false, 130, 0},
		{"returns on cancel: not ended", true, []os.Signal{syscall.SIGTERM}, true, 0, 0},
		{"serve, one signal: left to drain", false, []os.Signal{syscall.SIGTERM}, false, 0, 0},
		{"serve, a second signal ends it", false, []os.Signal{syscall.SIGTERM, syscall.SIGTERM}, false, 143, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			signals := make(chan os.Signal, 2)
			done := make(chan struct{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			exits := make(chan int, 1)
			var stderr syncbuf.Buffer
			go stopOnSignal(signals, done, cancel, tc.hard, &stderr, func(code int) { exits <- code })
			start := time.Now()
			for _, s := range tc.signals {
				signals <- s
			}
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the first signal did not cancel the command's context")
			}
			if tc.returns {
				close(done)
			}
			// Long enough for the grace to pass on a loaded machine.
			wait := signalGrace + 10*time.Second
			select {
			case code := <-exits:
				if tc.wantExit == 0 {
					t.Fatalf("exit(%d) called; want the command left to return", code)
				}
				if code != tc.wantExit {
					t.Errorf("exit(%d), want %d", code, tc.wantExit)
				}
				if waited := time.Since(start); waited < tc.minWait {
					t.Errorf("ended after %v, before the %v grace", waited, tc.minWait)
				}
				if !strings.Contains(stderr.String(), "widgetd: stopped by") {
					t.Errorf("stderr does not say why it stopped: %q", stderr.String())
				}
			case <-time.After(wait):
				if tc.wantExit != 0 {
					t.Fatalf("not ended %v after the signals", wait)
				}
			}
			if !tc.returns {
				close(done)
			}
		})
	}
}

// TestSignalStopsDev runs the real command (this test binary as widgetd):
// widgetd dev, which waits for edits for ever, stops on SIGTERM and SIGINT
// within a generous bound with the signal's status or success.
func TestSignalStopsDev(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			root := writeProject(t, map[string]string{
				"widgets/w/widget.json": `{"title": "W"}`,
				"widgets/w/index.ts":    `document.body.append("w");`,
			})
			cmd := widgetdCmd(t, root, "dev", "--addr", "127.0.0.1:0")
			var stdout, stderr syncbuf.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-exited
			})
			for deadline := time.Now().Add(60 * time.Second); !strings.Contains(stdout.String(), "Preview: "); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("dev did not start: %s", stderr.String())
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				exited <- err
				var ee *exec.ExitError
				if err != nil && (!errors.As(err, &ee) || ee.ExitCode() != 128+int(sig)) {
					t.Fatalf("exit %v, want success or status %d\nstderr: %s", err, 128+int(sig), stderr.String())
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("still running 20 s after %v\nstderr: %s", sig, stderr.String())
			}
		})
	}
}

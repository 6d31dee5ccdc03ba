// Package daemontest runs real server programs (nginx, Varnish, versitygw,
// Pebble) for tests: find the binary (failing under CI, skipping
// elsewhere), pick a free loopback port, start the program until the test
// ends, and wait until it listens. One copy of this, so every daemon test
// stops its process, reports its output and bounds its wait the same way.
package daemontest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/ci"
	"github.com/widgetd/widgetd/internal/syncbuf"
)

// StartTimeout bounds how long WaitListening waits; generous, for a loaded
// CI runner.
const StartTimeout = 30 * time.Second

// Lookup finds the program name on PATH or in /usr/sbin (where Debian puts
// daemons, not on every user's PATH). When it is missing the test fails
// under CI, where .ci/run installs it, and is skipped elsewhere; install
// says how to install it.
func Lookup(t testing.TB, name, install string) string {
	t.Helper()
	if bin, err := exec.LookPath(name); err == nil {
		return bin
	}
	if bin := filepath.Join("/usr/sbin", name); fileExists(bin) {
		return bin
	}
	if ci.Running() {
		t.Fatalf("%s not found and CI is set: this test must run in CI (%s)", name, install)
	}
	t.Skipf("%s not found (%s)", name, install)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Process is a program started by Start.
type Process struct {
	// Name is the program's base name, for messages.
	Name string
	// Out holds what it wrote to stdout and stderr.
	Out *syncbuf.Buffer
	// Exited is closed once the program has ended; Err then holds Wait's
	// result.
	Exited <-chan struct{}
	err    error
}

// Err waits for the program to end and returns Wait's result.
func (p *Process) Err() error {
	<-p.Exited
	return p.err
}

// Start starts cmd, made with exec.CommandContext on a context that cancel
// ends, with its stdout and stderr in the returned Process's Out. At
// cleanup it cancels the context (cmd.Cancel decides how the program is
// told; the default kills it) and waits for the program to end, at most
// cmd.WaitDelay (5 s when unset) after that.
func Start(t testing.TB, cmd *exec.Cmd, cancel context.CancelFunc) *Process {
	t.Helper()
	p := &Process{Name: filepath.Base(cmd.Path), Out: &syncbuf.Buffer{}}
	cmd.Stdout, cmd.Stderr = p.Out, p.Out
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = 5 * time.Second
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start %s: %v", p.Name, err)
	}
	exited := make(chan struct{})
	go func() { p.err = cmd.Wait(); close(exited) }()
	p.Exited = exited
	t.Cleanup(func() { cancel(); <-exited })
	return p
}

// WaitListening waits until addr accepts a TCP connection, failing t with
// the program's output, and whatever more returns (nil for nothing), when
// the program exits first or StartTimeout passes.
func (p *Process) WaitListening(t testing.TB, addr string, more func() string) {
	t.Helper()
	report := func() string {
		s := p.Out.String()
		if more != nil {
			s += "\n" + more()
		}
		return s
	}
	deadline := time.After(StartTimeout)
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		select {
		case <-p.Exited:
			t.Fatalf("%s exited (%v) before listening on %s:\n%s", p.Name, p.err, addr, report())
		case <-deadline:
			t.Fatalf("%s did not listen on %s within %s:\n%s", p.Name, addr, StartTimeout, report())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

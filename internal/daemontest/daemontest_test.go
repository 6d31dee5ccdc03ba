package daemontest

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fatalRecorder is a testing.TB whose Fatalf records the message and ends
// the calling goroutine, as the real one does, so the failure paths can be
// asserted.
type fatalRecorder struct {
	testing.TB
	msg chan string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg <- fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs f with a recorder and returns what it failed with, or "" if
// it returned normally.
func failure(t *testing.T, f func(tb testing.TB)) string {
	r := &fatalRecorder{TB: t, msg: make(chan string, 1)}
	done := make(chan struct{})
	go func() { defer close(done); f(r) }()
	<-done
	select {
	case m := <-r.msg:
		return m
	default:
		return ""
	}
}

func python(t *testing.T) string {
	bin, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	return bin
}

func TestFreePortCanBeListenedOn(t *testing.T) {
	port := FreePort(t)
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatalf("port %d from FreePort: %v", port, err)
	}
	l.Close()
}

func TestStartWaitsForListenerAndStopsAtCleanup(t *testing.T) {
	bin := python(t)
	port := FreePort(t)
	var p *Process
	t.Run("run", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		script := fmt.Sprintf("import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1',%d))\ns.listen()\nprint('up',flush=True)\ntime.sleep(600)", port)
		p = Start(t, exec.CommandContext(ctx, bin, "-c", script), cancel)
		p.WaitListening(t, fmt.Sprintf("127.0.0.1:%d", port), nil)
		if !strings.Contains(p.Out.String(), "up") {
			t.Errorf("output %q lacks the program's line", p.Out.String())
		}
	})
	select {
	case <-p.Exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the program still runs after the test's cleanup")
	}
}

func TestWaitListeningReportsAnEarlyExit(t *testing.T) {
	bin := python(t)
	addr := fmt.Sprintf("127.0.0.1:%d", FreePort(t))
	ctx, cancel := context.WithCancel(context.Background())
	p := Start(t, exec.CommandContext(ctx, bin, "-c", "print('bad config line 3'); raise SystemExit(3)"), cancel)
	msg := failure(t, func(tb testing.TB) {
		p.WaitListening(tb, addr, func() string { return "the config" })
	})
	for _, want := range []string{"python3 exited (exit status 3) before listening on " + addr, "bad config line 3", "the config"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure %q lacks %q", msg, want)
		}
	}
}

func TestLookupFindsOrSkips(t *testing.T) {
	if bin := Lookup(t, "sh", "apt-get install -y dash"); !strings.HasSuffix(bin, "/sh") {
		t.Errorf("Lookup(sh) = %q", bin)
	}
	t.Setenv("CI", "true")
	msg := failure(t, func(tb testing.TB) { Lookup(tb, "no-such-daemon-widgetd", "apt-get install -y no-such") })
	if !strings.Contains(msg, "no-such-daemon-widgetd not found and CI is set") || !strings.Contains(msg, "apt-get install -y no-such") {
		t.Errorf("under CI, a missing program fails with %q", msg)
	}
}

package jscompile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("these tests drive the real Node.js helper; install Node.js 20+")
	}
}

func testHelper(t *testing.T) *Helper {
	t.Helper()
	needNode(t)
	h := New(Options{Dir: t.TempDir(), Env: []string{"WIDGETD_JSCOMPILE_TEST=1"}})
	t.Cleanup(func() { h.Close() })
	return h
}

// waitInFlight waits until the running process has n calls in flight (sent
// or being sent), instead of sleeping and hoping a loaded machine ran the
// calling goroutine by then.
func waitInFlight(t *testing.T, h *Helper, n int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		h.mu.Lock()
		p := h.proc
		h.mu.Unlock()
		got := 0
		if p != nil {
			p.mu.Lock()
			got = len(p.pending)
			p.mu.Unlock()
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d calls in flight after 20s, want %d", got, n)
		}
	}
}

// notifyingWriter reports on wrote after each write to the helper's stdin.
type notifyingWriter struct {
	io.WriteCloser
	wrote chan<- struct{}
}

func (w notifyingWriter) Write(b []byte) (int, error) {
	n, err := w.WriteCloser.Write(b)
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func TestNotStartedUntilCalled(t *testing.T) {
	h := testHelper(t)
	if h.Started() != 0 {
		t.Fatalf("started before any call")
	}
	var out struct{ Node string }
	if err := h.Call(context.Background(), "ping", nil, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.Node, "v") || h.Started() != 1 || h.StartupDuration() <= 0 {
		t.Fatalf("ping = %+v, starts %d, startup %v", out, h.Started(), h.StartupDuration())
	}
}

// Many concurrent callers share one process; each gets its own answer even
// when the answers come back out of order.
func TestConcurrentCallsShareOneProcess(t *testing.T) {
	h := testHelper(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var out struct{ Slept int }
			ms := (64 - i) % 7 * 5
			if err := h.Call(context.Background(), "sleep", map[string]int{"ms": ms}, &out); err != nil {
				errs <- err
				return
			}
			if out.Slept != ms {
				errs <- fmt.Errorf("call %d: got answer for %d ms, want %d", i, out.Slept, ms)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if h.Started() != 1 {
		t.Fatalf("%d processes started, want 1", h.Started())
	}
}

// Large payloads with newlines and non-ASCII survive the line protocol.
func TestLargePayload(t *testing.T) {
	h := testHelper(t)
	src := strings.Repeat("línea \"quoted\"\n\u2028", 200000)
	var out struct{ Source string }
	if err := h.Call(context.Background(), "echo", map[string]string{"source": src}, &out); err != nil {
		t.Fatal(err)
	}
	if out.Source != src {
		t.Fatalf("echo changed a %d-byte source (got %d bytes)", len(src), len(out.Source))
	}
}

// A crash fails the calls in flight with a clear error instead of hanging,
// and the next call starts a fresh process.
func TestCrashIsAnErrorNotAHang(t *testing.T) {
	h := testHelper(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	slow := make(chan error, 1)
	go func() { slow <- h.Call(ctx, "sleep", map[string]int{"ms": 10000}, nil) }()
	waitInFlight(t, h, 1)
	err := h.Call(ctx, "crash", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "node helper") || !strings.Contains(err.Error(), "exit status 7") {
		t.Fatalf("crash call: %v", err)
	}
	select {
	case err := <-slow:
		if err == nil || !strings.Contains(err.Error(), "exit status 7") {
			t.Fatalf("in-flight call: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("in-flight call still waiting after the helper died")
	}
	if err := h.Call(ctx, "ping", nil, nil); err != nil {
		t.Fatalf("after crash: %v", err)
	}
	if h.Started() != 2 {
		t.Fatalf("starts = %d, want 2 (one restart)", h.Started())
	}
}

func TestContextCancelDoesNotWaitForNode(t *testing.T) {
	h := testHelper(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	// Node answers after a minute; the call must end with its context, long
	// before (30 s leaves a loaded machine a hundred times the deadline).
	err := h.Call(ctx, "sleep", map[string]int{"ms": 60000}, nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 30*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}

func TestMissingPackage(t *testing.T) {
	h := testHelper(t)
	dir := t.TempDir()
	err := h.Call(context.Background(), "svelte", map[string]string{"dir": dir, "file": dir + "/App.svelte", "source": "<p>hi</p>"}, nil)
	var mp *MissingPackageError
	if !errors.As(err, &mp) || mp.Package != "svelte" {
		t.Fatalf("err = %#v, want MissingPackageError for svelte", err)
	}
}

func TestNoNode(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	h := New(Options{Dir: t.TempDir()})
	defer h.Close()
	err := h.Call(context.Background(), "ping", nil, nil)
	if !errors.Is(err, ErrNoNode) {
		t.Fatalf("err = %v, want ErrNoNode", err)
	}
	if h.Started() != 0 {
		t.Fatal("counted a start without Node")
	}
}

func TestUnknownOp(t *testing.T) {
	h := testHelper(t)
	err := h.Call(context.Background(), "nope", nil, nil)
	if err == nil || !strings.Contains(err.Error(), `unknown op "nope"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestClosedHelperRefuses(t *testing.T) {
	h := testHelper(t)
	if err := h.Call(context.Background(), "ping", nil, nil); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if err := h.Call(context.Background(), "ping", nil, nil); err == nil {
		t.Fatal("call after Close succeeded")
	}
}

// A context that ends while Node is still starting stops the start-up
// without waiting for it.
func TestContextEndsDuringStartup(t *testing.T) {
	h := testHelper(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- h.Call(ctx, "ping", nil, nil) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the context's deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("start-up did not stop when its context ended")
	}
	if err := h.Call(context.Background(), "ping", nil, nil); err != nil {
		t.Fatalf("next call: %v", err)
	}
}

// While Node is busy (not reading its stdin), a request larger than the pipe
// buffer cannot be written; the caller's context still ends the call.
func TestContextEndsBlockedWrite(t *testing.T) {
	h := testHelper(t)
	if err := h.Call(context.Background(), "ping", nil, nil); err != nil {
		t.Fatal(err)
	}
	// The busy request must be in the pipe before the large one: Node then
	// reads it first and stops reading. A writer that reports each request
	// written says when, however slow the machine.
	h.mu.Lock()
	p := h.proc
	h.mu.Unlock()
	wrote := make(chan struct{}, 1)
	p.writeMu.Lock()
	p.stdin = notifyingWriter{p.stdin, wrote}
	p.writeMu.Unlock()
	// Node stays busy far longer than the test (Close kills it at the end).
	busy := make(chan error, 1)
	go func() { busy <- h.Call(context.Background(), "busy", map[string]int{"ms": 60000}, nil) }()
	select {
	case <-wrote:
	case <-time.After(20 * time.Second):
		t.Fatal("busy request not written after 20s")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := h.Call(ctx, "echo", map[string]string{"source": strings.Repeat("x", 4<<20)}, nil)
	// Order, not a duration (marshalling 4 MiB on a loaded machine can take
	// seconds): the call ends with its context while Node is still busy.
	select {
	case berr := <-busy:
		t.Fatalf("echo returned %v after %v, only once Node was no longer busy (%v)", err, time.Since(start), berr)
	default:
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v after %v, want the context's deadline", err, time.Since(start))
	}
}

package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/internal/syncbuf"
)

// startupProject is a one-widget project for the start-up tests.
func startupProject(t *testing.T) string {
	return writeProject(t, map[string]string{
		"widgets/hi/widget.json": `{"title": "Hi"}`,
		"widgets/hi/index.ts":    `document.body.append("hi");`,
	})
}

// startDevCmd runs `widgetd dev args...` until stdout shows the preview
// URL, and returns it with the outputs and a stop function (Ctrl-C, then
// the exit code).
func startDevCmd(t *testing.T, args []string) (url string, out, errb *syncbuf.Buffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errb = &syncbuf.Buffer{}, &syncbuf.Buffer{}
	done := make(chan int, 1)
	go func() { done <- run(ctx, append([]string{"dev"}, args...), out, errb) }()
	stopped := false
	stop = func() int {
		if stopped {
			return exitOK
		}
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), "Preview: "); {
		if time.Now().After(deadline) {
			t.Fatalf("no preview URL printed:\n%s\n%s", out, errb)
		}
		time.Sleep(20 * time.Millisecond)
	}
	url = strings.Fields(strings.SplitN(out.String(), "Preview: ", 2)[1])[0]
	return url, out, errb, stop
}

// TestDevDefaultPortBusy holds the default port with a real listener (or
// finds it held already, by another program: busy either way) and starts
// `widgetd dev` without --addr: it must take a later port, say so once,
// print the preview URL exactly once, and answer there.
func TestDevDefaultPortBusy(t *testing.T) {
	if ln, err := net.Listen("tcp", devserver.DefaultAddr); err == nil {
		t.Cleanup(func() { ln.Close() })
	}
	url, out, errb, stop := startDevCmd(t, []string{"--root", startupProject(t)})
	_, defPort, _ := net.SplitHostPort(devserver.DefaultAddr)
	if strings.Contains(url, ":"+defPort+"/") {
		t.Fatalf("preview at the busy default port: %s", url)
	}
	if want := "(port " + defPort + " is in use, so "; strings.Count(out.String(), want) != 1 {
		t.Errorf("stdout does not say once that the port moved (%q):\n%s", want, out)
	}
	if n := strings.Count(out.String()+errb.String(), url); n != 1 {
		t.Errorf("preview URL printed %d times, want once:\nstdout:\n%s\nstderr:\n%s", n, out, errb)
	}
	waitState(t, url)
	if code := stop(); code != exitOK {
		t.Errorf("exit %d after Ctrl-C", code)
	}
}

// TestDevExplicitPortBusy asks for a port held by a real listener with
// --port and --addr: a port the user chose stays fatal (exit 1, the
// preview never starts) with a hint naming the flag. A --port out of range
// is a usage error.
func TestDevExplicitPortBusy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	root := startupProject(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"--port", []string{"--port", strconv.Itoa(port)}, exitError,
			[]string{fmt.Sprintf("127.0.0.1:%d: the port is in use", port), "choose another port with --port (e.g. --port " + strconv.Itoa(port+1) + ")"}},
		{"--addr", []string{"--addr", ln.Addr().String()}, exitError,
			[]string{"the port is in use", fmt.Sprintf("choose another port with --addr (e.g. --addr 127.0.0.1:%d)", port+1)}},
		{"--port out of range", []string{"--port", "70000"}, exitUsage, []string{`invalid value "70000" for flag --port: want a port number from 0 to 65535`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			devRefuses(t, append([]string{"--root", root}, tc.args...), tc.code, tc.want)
		})
	}
}

// devRefuses runs `widgetd dev args...` and expects it to exit with code
// before the preview starts, its stderr holding each of want.
func devRefuses(t *testing.T, args []string, code int, want []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errb syncbuf.Buffer
	if got := run(ctx, append([]string{"dev"}, args...), &out, &errb); got != code {
		t.Fatalf("exit %d, want %d; stderr:\n%s", got, code, errb.String())
	}
	for _, w := range want {
		if !strings.Contains(errb.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errb.String())
		}
	}
	if strings.Contains(out.String(), "Preview:") {
		t.Errorf("the preview started:\n%s", out.String())
	}
}

// TestDevOpen runs `widgetd dev --open`. The real browser opener cannot run
// headless here, so PATH holds a small real program under the opener's name
// (xdg-open on Linux) that records its argument: it must get the preview
// URL. With an empty PATH there is no opener: dev says so and keeps serving.
func TestDevOpen(t *testing.T) {
	name, _ := browserOpener(runtime.GOOS)
	bin, record := t.TempDir(), filepath.Join(t.TempDir(), "opened")
	script := "#!/bin/sh\nprintf '%s' \"$1\" > " + record + "\n"
	if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	root := startupProject(t)
	t.Run("opener on PATH", func(t *testing.T) {
		t.Setenv("PATH", bin)
		url, _, errb, _ := startDevCmd(t, []string{"--root", root, "--addr", "127.0.0.1:0", "--open"})
		var got []byte
		for deadline := time.Now().Add(20 * time.Second); string(got) != url; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s got %q, want %q; stderr:\n%s", name, got, url, errb)
			}
			got, _ = os.ReadFile(record)
		}
	})
	t.Run("no opener", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		url, _, errb, _ := startDevCmd(t, []string{"--root", root, "--addr", "127.0.0.1:0", "--open"})
		want := fmt.Sprintf("--open: %s is not on PATH, so no browser was opened; open %s yourself", name, url)
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
		waitState(t, url)
	})
}

// waitState waits until the dev server at url answers /_widgetd/state.
func waitState(t *testing.T, url string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		res, err := http.Get(url + "_widgetd/state")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s_widgetd/state never answered 200 (%v)", url, err)
		}
	}
}

// Package exampleserver runs the repository's example MCP server
// (examples/mcpserver) as its own process for tests that need a real
// server over real HTTP: `widgetd check --mcp`, `widgetd dev --mcp`.
package exampleserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/syncbuf"
)

// Package is the example server's import path; `go build` finds it from any
// directory of the module.
const Package = "github.com/widgetd/widgetd/examples/mcpserver"

// listening is the example server's start-up log line with its endpoint.
var listening = regexp.MustCompile(`msg=listening mcp=(http://\S+)`)

// Start builds examples/mcpserver, runs it on a free loopback port and
// returns its MCP endpoint once it logs that it listens. The process is
// interrupted and reaped when the test ends.
func Start(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpserver")
	if out, err := exec.Command("go", "build", "-o", bin, Package).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", Package, err, out)
	}
	var log syncbuf.Buffer
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0")
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		<-exited
	})
	deadline := time.After(60 * time.Second)
	for {
		if m := listening.FindStringSubmatch(log.String()); m != nil {
			return m[1]
		}
		select {
		case <-exited:
			t.Fatalf("examples/mcpserver exited (%v) before it listened:\n%s", waitErr, log.String())
		case <-deadline:
			t.Fatalf("examples/mcpserver did not log that it listens within 60 s:\n%s", log.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Package nginxtest runs a real nginx for tests that need a reverse proxy,
// a load balancer or a CDN stand-in in front of a server: one way to find
// the binary, start it in the foreground under its own prefix folder, wait
// until it listens, and stop it with its workers.
package nginxtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/ci"
	"github.com/widgetd/widgetd/internal/syncbuf"
)

// startTimeout bounds how long Start waits for nginx to listen; generous,
// for a loaded CI runner.
const startTimeout = 30 * time.Second

// Server is a running nginx.
type Server struct {
	// Prefix is nginx's -p folder: the config, logs (access.log and
	// error.log when the config names them so), pid file and tmp/.
	Prefix string
}

// Path returns the file name inside the prefix folder, such as the access
// log a test reads.
func (s *Server) Path(name string) string { return filepath.Join(s.Prefix, name) }

// Start writes conf to a fresh prefix folder, with "{{prefix}}" replaced by
// that folder and "{{user}}" by "user root;" when the test runs as root
// (the workers must reach files under t.TempDir()) or by nothing, runs
// nginx in the foreground, and returns once each of the loopback ports in
// ready accepts connections. Without nginx the test fails when CI is set
// and is skipped otherwise. nginx is stopped at cleanup with SIGTERM, so
// the master stops its workers (a killed master would leave them running).
func Start(t testing.TB, conf string, ready ...int) *Server {
	t.Helper()
	bin := lookup(t)
	s := &Server{Prefix: t.TempDir()}
	if err := os.MkdirAll(s.Path("tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	conf = strings.NewReplacer("{{prefix}}", s.Prefix, "{{user}}", user).Replace(conf)
	cf := s.Path("nginx.conf")
	if err := os.WriteFile(cf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-p", s.Prefix, "-c", cf, "-g", "daemon off;")
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start nginx: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cancel(); <-exited })
	for _, port := range ready {
		s.waitListening(t, port, exited, out, conf)
	}
	return s
}

// lookup finds nginx on PATH or where Debian puts it (/usr/sbin is not on
// every user's PATH).
func lookup(t testing.TB) string {
	t.Helper()
	if bin, err := exec.LookPath("nginx"); err == nil {
		return bin
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	if ci.Running() {
		t.Fatal("nginx not found and CI is set: this test must run in CI (apt-get install -y nginx)")
	}
	t.Skip("nginx not found (apt-get install -y nginx)")
	return ""
}

// waitListening waits until 127.0.0.1:port accepts a connection, failing
// with nginx's output, error log and config when nginx exits first or
// startTimeout passes.
func (s *Server) waitListening(t testing.TB, port int, exited <-chan error, out *syncbuf.Buffer, conf string) {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.After(startTimeout)
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		errorLog, _ := os.ReadFile(s.Path("error.log"))
		select {
		case err := <-exited:
			t.Fatalf("nginx exited (%v) before listening on %s:\n%s\n%s\n%s", err, addr, out.String(), errorLog, conf)
		case <-deadline:
			t.Fatalf("nginx did not listen on %s within %s:\n%s\n%s\n%s", addr, startTimeout, out.String(), errorLog, conf)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

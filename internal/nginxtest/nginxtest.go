// Package nginxtest runs a real nginx for tests that need a reverse proxy,
// a load balancer or a CDN stand-in in front of a server: one way to find
// the binary, start it in the foreground under its own prefix folder, wait
// until it listens, and stop it with its workers.
package nginxtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/widgetd/widgetd/internal/daemontest"
)

// tempPaths puts every temporary file nginx's http module writes under
// the prefix, not into the system's /var/lib/nginx.
const tempPaths = `client_body_temp_path {{prefix}}/tmp;
  proxy_temp_path {{prefix}}/tmp;
  fastcgi_temp_path {{prefix}}/tmp;
  uwsgi_temp_path {{prefix}}/tmp;
  scgi_temp_path {{prefix}}/tmp;`

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
// that folder, "{{temp_paths}}" (inside http) by the directives that keep
// every temporary file under it, and "{{user}}" by "user root;" when the
// test runs as root (the workers must reach files under t.TempDir()) or by
// nothing, runs nginx in the foreground, and returns once each of the
// loopback ports in ready accepts connections. Without nginx the test fails when CI is set
// and is skipped otherwise. nginx is stopped at cleanup with SIGTERM, so
// the master stops its workers (a killed master would leave them running).
func Start(t testing.TB, conf string, ready ...int) *Server {
	t.Helper()
	bin := daemontest.Lookup(t, "nginx", "apt-get install -y nginx")
	s := &Server{Prefix: t.TempDir()}
	if err := os.MkdirAll(s.Path("tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	conf = strings.NewReplacer("{{temp_paths}}", tempPaths).Replace(conf)
	conf = strings.NewReplacer("{{prefix}}", s.Prefix, "{{user}}", user).Replace(conf)
	cf := s.Path("nginx.conf")
	if err := os.WriteFile(cf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-p", s.Prefix, "-c", cf, "-g", "daemon off;")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	p := daemontest.Start(t, cmd, cancel)
	for _, port := range ready {
		p.WaitListening(t, fmt.Sprintf("127.0.0.1:%d", port), func() string {
			errorLog, _ := os.ReadFile(s.Path("error.log"))
			return string(errorLog) + "\n" + conf
		})
	}
	return s
}

// Package benchenv holds what the benchmark commands under bench/ share
// about the machine they run on and the tools they run: the load average
// and node and npm package versions their reports print, a free loopback
// port for the servers they start, and a copy of a widgets folder without
// its node_modules. One copy, so every report reads these the same way.
package benchenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/widgetd/widgetd/internal/copytree"
)

// Unknown stands in a report for a value this machine did not give.
const Unknown = "unknown"

// LoadAvg returns the 1, 5 and 15 minute load averages from /proc/loadavg,
// or Unknown: a benchmark prints it so a reader can tell a run on a busy
// machine.
func LoadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return Unknown
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return Unknown
	}
	return strings.Join(f[:3], " ")
}

// NodeVersion returns `node --version` (v22.1.0), or Unknown when node
// does not run: the Vite side of a comparison runs on it.
func NodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return Unknown
	}
	return strings.TrimSpace(string(out))
}

// PkgVersion reads the version of the npm package pkg installed in
// dir/node_modules.
func PkgVersion(dir, pkg string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
	if err != nil {
		return "", fmt.Errorf("read %s version: %w", pkg, err)
	}
	var p struct{ Version string }
	if err := json.Unmarshal(data, &p); err != nil {
		return "", fmt.Errorf("read %s version: %w", pkg, err)
	}
	return p.Version, nil
}

// Proc is one timed child process: wall time, CPU time (user + sys, less
// disturbed by other load on a shared machine than wall time) and peak
// resident set size.
type Proc struct {
	Wall   time.Duration `json:"wallNs"`
	CPU    time.Duration `json:"cpuNs"`
	MaxRSS int64         `json:"maxRssBytes"`
}

// RunTimed runs the command args in dir and returns its times and what it
// wrote to stdout. A failure's error ends with the last few kB of the
// command's stderr and stdout, to say why.
func RunTimed(ctx context.Context, dir string, args ...string) (Proc, []byte, error) {
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return Proc{}, nil, fmt.Errorf("%s: %w\n%s%s", strings.Join(args, " "), err, tail(stderr.Bytes()), tail(stdout.Bytes()))
	}
	st := cmd.ProcessState
	p := Proc{Wall: wall, CPU: st.UserTime() + st.SystemTime()}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		p.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return p, stdout.Bytes(), nil
}

// tail is the end of a command's output, enough to see its error.
func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}

// FreePort returns a loopback TCP port that was free a moment ago, for a
// server the benchmark starts as a child process.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// WorkDir makes the benchmark's temporary folder (widgetd-<name>-*) and
// returns a function that removes it. With keep, it says on stderr where
// the folder is and remove leaves it, for a reader to look at the outputs.
func WorkDir(name string, keep bool) (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", "widgetd-"+name+"-")
	if err != nil {
		return "", nil, err
	}
	if keep {
		fmt.Fprintf(os.Stderr, "%s: keeping %s\n", name, dir)
		return dir, func() {}, nil
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// CopyWidgets copies the folder src to dst without any node_modules folder
// (a benchmark edits the copy; packages resolve from elsewhere).
func CopyWidgets(src, dst string) error {
	return copytree.Copy(src, dst, copytree.Options{Skip: copytree.SkipNamed("node_modules")})
}

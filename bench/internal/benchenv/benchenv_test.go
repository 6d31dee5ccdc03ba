package benchenv

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestCopyWidgets: every file is copied with its content, node_modules
// folders at any depth are not.
func TestCopyWidgets(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	testfiles.WriteFile(t, filepath.Join(src, "a", "src", "App.tsx"), "app")
	testfiles.WriteFile(t, filepath.Join(src, "widget.json"), "{}")
	testfiles.WriteFile(t, filepath.Join(src, "node_modules", "react", "index.js"), "react")
	testfiles.WriteFile(t, filepath.Join(src, "a", "node_modules", "x", "y.js"), "y")
	if err := CopyWidgets(src, dst); err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{"a/src/App.tsx": "app", "widget.json": "{}"} {
		got, err := os.ReadFile(filepath.Join(dst, rel))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", rel, got, err, want)
		}
	}
	for _, rel := range []string{"node_modules", "a/node_modules"} {
		if _, err := os.Stat(filepath.Join(dst, rel)); !os.IsNotExist(err) {
			t.Errorf("%s copied (stat error %v)", rel, err)
		}
	}
}

// TestPkgVersion: the installed package's version, and an error naming the
// package when it is missing or its package.json is not JSON.
func TestPkgVersion(t *testing.T) {
	dir := t.TempDir()
	testfiles.WriteFile(t, filepath.Join(dir, "node_modules", "@scope", "vite", "package.json"), `{"name":"vite","version":"7.1.2"}`)
	testfiles.WriteFile(t, filepath.Join(dir, "node_modules", "broken", "package.json"), `{`)
	if v, err := PkgVersion(dir, "@scope/vite"); err != nil || v != "7.1.2" {
		t.Errorf("PkgVersion = %q, %v; want 7.1.2", v, err)
	}
	for _, pkg := range []string{"missing", "broken"} {
		if _, err := PkgVersion(dir, pkg); err == nil || !strings.Contains(err.Error(), pkg) {
			t.Errorf("PkgVersion(%s) error %v; want one naming it", pkg, err)
		}
	}
}

// TestFreePort: the port can be listened on again.
func TestFreePort(t *testing.T) {
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("port %d not free: %v", port, err)
	}
	ln.Close()
}

// TestLoadAvg: three numbers where /proc/loadavg exists, else Unknown.
func TestLoadAvg(t *testing.T) {
	got := LoadAvg()
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		if got != Unknown {
			t.Errorf("LoadAvg = %q without /proc/loadavg; want %q", got, Unknown)
		}
		return
	}
	f := strings.Fields(got)
	if len(f) != 3 {
		t.Fatalf("LoadAvg = %q; want three numbers", got)
	}
	for _, n := range f {
		if _, err := strconv.ParseFloat(n, 64); err != nil {
			t.Errorf("LoadAvg = %q: %v", got, err)
		}
	}
}

// TestWorkDir: the folder exists; remove deletes it, unless kept.
func TestWorkDir(t *testing.T) {
	for _, keep := range []bool{false, true} {
		dir, remove, err := WorkDir("benchenv-test", keep)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(filepath.Base(dir), "widgetd-benchenv-test-") {
			t.Errorf("WorkDir = %s; want widgetd-benchenv-test-*", dir)
		}
		testfiles.WriteFile(t, filepath.Join(dir, "out", "a.js"), "a")
		remove()
		_, err = os.Stat(dir)
		if keep && err != nil {
			t.Errorf("kept folder gone: %v", err)
		}
		if !keep && !os.IsNotExist(err) {
			t.Errorf("folder not removed (stat error %v)", err)
		}
		os.RemoveAll(dir)
	}
}

// TestRunTimed: a command's stdout and times (its peak RSS from rusage);
// a failing one's error names the command and ends with the end of its
// output, cut to the last 4000 bytes.
func TestRunTimed(t *testing.T) {
	dir := t.TempDir()
	p, out, err := RunTimed(context.Background(), dir, "sh", "-c", "pwd; echo noise >&2")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(out)) != dir || p.Wall <= 0 || p.CPU < 0 || p.MaxRSS <= 0 {
		t.Errorf("stdout %q, %+v; want %s with wall time and RSS", out, p, dir)
	}
	_, _, err = RunTimed(context.Background(), dir, "sh", "-c", "head -c 5000 /dev/zero | tr '\\0' a >&2; echo last >&2; exit 3")
	if err == nil {
		t.Fatal("exit 3: no error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "sh -c ") || !strings.Contains(msg, "exit status 3") || !strings.HasSuffix(msg, "last\n") || len(msg) > 4500 {
		t.Errorf("error %d bytes: %.200q…; want the command, its status and the last 4000 bytes of stderr", len(msg), msg)
	}
}

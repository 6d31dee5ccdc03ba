package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cliSecret is put in the environment of the widgetd processes these tests
// run: it must never reach dist/.
const cliSecret = "WIDGETD_CONTAIN_TEST_SECRET=runner-token-5f1c"

// TestBuildRefusesWhatItMayNotRead is the reproducer and its kin,
// through the real CLI on a project from `widgetd init`: each import is a
// failing build (non-zero exit) at the import's file:line:col, with the
// reason, and dist/ from the build before is byte-for-byte untouched. Each
// run has a deadline, so a build that blocks on a FIFO or reads /dev/zero
// fails the test instead of hanging it.
func TestBuildRefusesWhatItMayNotRead(t *testing.T) {
	tests := []struct {
		name   string
		append string // to widgets/hello/index.ts
		setup  func(t *testing.T, root string)
		want   []string
	}{
		{name: "/proc/self/environ?raw (the issue's reproducer)",
			append: `import s from "/proc/self/environ?raw"; console.log(s);`,
			want:   []string{"widgets/hello/index.ts:LINE:15: error:", `"/proc/self/environ" resolves through a symlink at /proc/self/environ to /proc/`, `"allowOutside"`}},
		{name: "/dev/zero?raw",
			append: `import z from "/dev/zero?raw"; console.log(z);`,
			want:   []string{"widgets/hello/index.ts:LINE:15: error:", `resolves to /dev/zero, outside the project`, `"allowOutside"`}},
		{name: "/etc/passwd through widgets/node_modules -> /",
			append: `import p from "etc/passwd" with { type: "text" }; console.log(p);`,
			setup: func(t *testing.T, root string) {
				if err := os.Symlink("/", filepath.Join(root, "widgets", "node_modules")); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"widgets/hello/index.ts:LINE:15: error:", `resolves to /etc/passwd, outside the project`, `"allowOutside"`}},
		{name: "a FIFO imported as text",
			append: `import f from "./pipe.txt" with { type: "text" }; console.log(f);`,
			setup: func(t *testing.T, root string) {
				if err := syscall.Mkfifo(filepath.Join(root, "widgets", "hello", "pipe.txt"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"widgets/hello/index.ts:LINE:15: error:", `"widgets/hello/pipe.txt" is a named pipe (FIFO), not a regular file; a build reads only regular files`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "p")
			if out, err := widgetdCmd(t, filepath.Dir(root), "init", "p").CombinedOutput(); err != nil {
				t.Fatalf("init: %v\n%s", err, out)
			}
			if out, err := widgetdCmd(t, root, "build", "--no-cache").CombinedOutput(); err != nil {
				t.Fatalf("the clean build: %v\n%s", err, out)
			}
			before := fileSums(t, filepath.Join(root, "dist"))
			entry := filepath.Join(root, "widgets", "hello", "index.ts")
			src, err := os.ReadFile(entry)
			if err != nil {
				t.Fatal(err)
			}
			src = append(src, '\n')
			line := strings.Count(string(src), "\n") + 1
			if err := os.WriteFile(entry, append(src, tc.append+"\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, root)
			}
			out, code := runWithin(t, root, 60*time.Second, "build", "--no-cache")
			if code == 0 {
				t.Fatalf("build exited 0:\n%s", out)
			}
			for _, w := range tc.want {
				w = strings.ReplaceAll(w, "LINE", strconv.Itoa(line))
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if diff := treeDiff(before, fileSums(t, filepath.Join(root, "dist"))); diff != "" {
				t.Errorf("dist/ changed:\n%s", diff)
			}
			assertNoSecretIn(t, filepath.Join(root, "dist"))
		})
	}
}

// runWithin runs widgetd in dir with cliSecret in its environment and
// returns its combined output and exit code, killing it (and failing the
// test) past timeout.
func runWithin(t *testing.T, dir string, timeout time.Duration, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := widgetdCmd(t, dir, args...)
	cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WIDGETD_TEST_AS_CLI=1", cliSecret)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("widgetd %v did not end within %v (blocked on, or reading without end, what it should refuse):\n%s", args, timeout, out)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// assertNoSecretIn fails when any file below dir holds the test's secret
// or the environment's HOME= entry.
func assertNoSecretIn(t *testing.T, dir string) {
	t.Helper()
	secretValue := cliSecret[strings.Index(cliSecret, "=")+1:]
	home := regexp.MustCompile(`HOME=/`)
	eachFile(t, dir, func(p string, data []byte) {
		if strings.Contains(string(data), secretValue) || home.Match(data) {
			t.Errorf("%s holds the build's environment", p)
		}
	})
}

// TestSymlinkedProjectPath builds projects at their real path and again
// reached through a symlinked folder (as the working directory, with PWD
// set as a shell sets it, and as --root), inline and external: every build
// succeeds and the dist/ trees are byte-identical. On macOS /tmp is such a
// link.
func TestSymlinkedProjectPath(t *testing.T) {
	projects := []struct{ name, src string }{
		{"examples", "../.."},
		{"conventions", "../../e2e/testdata/conventions"},
	}
	modes := []struct {
		name string
		args []string
	}{
		{"inline", nil},
		{"external", []string{"--public-url", "https://cdn.example.com/w/"}},
	}
	for _, p := range projects {
		for _, m := range modes {
			t.Run(p.name+"/"+m.name, func(t *testing.T) {
				top := t.TempDir()
				real := filepath.Join(top, "real", "project")
				copyProject(t, p.src, real, p.name == "examples")
				link := filepath.Join(top, "plink")
				if err := os.Symlink(real, link); err != nil {
					t.Fatal(err)
				}
				build := append([]string{"build", "--no-cache"}, m.args...)
				runOKIn(t, real, real, build...)
				want := fileSums(t, filepath.Join(real, "dist"))
				for _, how := range []struct {
					name, dir string
					args      []string
				}{
					{"working directory", link, build},
					{"--root", top, append(append([]string{}, build...), "--root", link)},
				} {
					if err := os.RemoveAll(filepath.Join(real, "dist")); err != nil {
						t.Fatal(err)
					}
					runOKIn(t, how.dir, how.dir, how.args...)
					if diff := treeDiff(want, fileSums(t, filepath.Join(real, "dist"))); diff != "" {
						t.Errorf("built through the link (%s), dist/ differs from the build at the real path:\n%s", how.name, diff)
					}
				}
			})
		}
	}
}

// runOKIn runs widgetd in dir with PWD=pwd (as a shell in a symlinked
// folder sets it) and fails the test unless it exits 0.
func runOKIn(t *testing.T, dir, pwd string, args ...string) {
	t.Helper()
	cmd := widgetdCmd(t, dir, args...)
	cmd.Env = append(cmd.Env, "PWD="+pwd)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("widgetd %v in %s: %v\n%s", args, dir, err, out)
	}
}

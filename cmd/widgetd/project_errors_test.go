package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/syncbuf"
)

// TestProjectErrorsAgree: with no widgets folder, or a widget without an
// entry, build, check, test and dev report the same problem the same way:
// exit 1 (dev keeps watching and says it), `widgetd init` and --root
// suggested for the missing folder, every entry name the bundler accepts
// listed for the entry-less widget.
func TestProjectErrorsAgree(t *testing.T) {
	empty := t.TempDir()
	entryless := writeProject(t, map[string]string{"widgets/bare/widget.json": `{"title": "Bare"}`})
	noFolder := []string{"widgets folder not found", "run `widgetd init`", "--root DIR"}
	noEntry := []string{"no entry found in", "index.html", "index.ts,", "index.tsx", "index.js,", "index.jsx", "src/main.ts"}
	for _, tc := range []struct {
		name string
		root string
		want []string
	}{
		{"no widgets folder", empty, noFolder},
		{"widget without entry", entryless, noEntry},
	} {
		for _, cmd := range []string{"build", "check", "test", "dev"} {
			t.Run(tc.name+"/"+cmd, func(t *testing.T) {
				var code int
				var out, errs string
				if cmd == "dev" {
					code, out, errs = runDevUntil(t, tc.root, tc.want[0])
				} else {
					code, out, errs = runCLI(t, cmd, "--root", tc.root)
				}
				wantCode := exitError
				if cmd == "dev" {
					wantCode = exitOK // it watches for the fix; Ctrl-C ends it cleanly
				}
				if code != wantCode {
					t.Errorf("exit %d, want %d", code, wantCode)
				}
				for _, w := range tc.want {
					if !strings.Contains(errs, w) {
						t.Errorf("stderr lacks %q", w)
					}
				}
				if t.Failed() {
					t.Logf("stdout: %s\nstderr: %s", out, errs)
				}
			})
		}
	}
}

// TestCheckJSONWithoutProject: check --json with no widgets folder still
// prints a JSON report (ok false, the diagnostic) and exits 1, as build
// --json does.
func TestCheckJSONWithoutProject(t *testing.T) {
	for _, cmd := range []string{"check", "build"} {
		code, out, _ := runCLI(t, cmd, "--root", t.TempDir(), "--json")
		var v struct {
			OK          bool `json:"ok"`
			Diagnostics []struct {
				Message string `json:"message"`
			} `json:"diagnostics"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitError || v.OK || len(v.Diagnostics) != 1 ||
			!strings.Contains(v.Diagnostics[0].Message, "run `widgetd init`") {
			t.Errorf("%s --json: exit %d, %v:\n%s", cmd, code, err, out)
		}
	}
}

// runDevUntil runs widgetd dev on root until its stderr holds want (or a
// minute passes), then stops it as Ctrl-C would.
func runDevUntil(t *testing.T, root, want string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncbuf.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"dev", "--root", root, "--addr", "127.0.0.1:0"}, &out, &errb) }()
	deadline := time.After(time.Minute)
	for !strings.Contains(errb.String(), want) {
		select {
		case code := <-done:
			return code, out.String(), errb.String()
		case <-deadline:
			cancel()
			return <-done, out.String(), errb.String()
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	return <-done, out.String(), errb.String()
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/bridge"
)

// TestTypesCommand checks that widgetd types writes the bridge declarations,
// that --check tells a stale copy from a current one, and that the copy in
// widgets/ is current.
func TestTypesCommand(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := runCLI(t, "types", "--widgets", dir); code != exitOK || !strings.Contains(out, "wrote") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	dts, _ := bridge.DTS()
	got, err := os.ReadFile(filepath.Join(dir, typesFile))
	if err != nil || string(got) != string(dts) {
		t.Fatalf("written file differs from the bridge declarations (%v)", err)
	}
	if code, _, _ := runCLI(t, "types", "--widgets", dir, "--check"); code != exitOK {
		t.Errorf("--check on a current file: exit %d", code)
	}
	os.WriteFile(filepath.Join(dir, typesFile), []byte("// stale\n"), 0o644)
	if code, _, errs := runCLI(t, "types", "--widgets", dir, "--check"); code != exitError || !strings.Contains(errs, "out of date") {
		t.Errorf("--check on a stale file: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "types", "--widgets", filepath.Join(dir, "missing")); code != exitError || !strings.Contains(errs, "does not exist") {
		t.Errorf("missing folder: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "types", "--widgets", "../../widgets", "--check"); code != exitOK {
		t.Errorf("widgets/%s is stale: run `go run ./cmd/widgetd types` (%s)", typesFile, errs)
	}
}

// TestExamplesTypeCheck runs tsc (strict) over the example widgets against
// the shipped declarations: the examples are documentation, and the
// declarations must describe what the bridge really offers them.
func TestExamplesTypeCheck(t *testing.T) {
	tsc := filepath.Join("..", "..", "widgets", "node_modules", "typescript", "bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("typescript missing: run `npm ci` in widgets/ (%v)", err)
	}
	cmd := exec.Command("node", tsc, "-p", filepath.Join("..", "..", "widgets"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc over widgets/: %v\n%s", err, out)
	}
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestWantProgress(t *testing.T) {
	for _, tc := range []struct {
		terminal, asJSON, want bool
	}{
		{true, false, true},
		{true, true, false},
		{false, false, false},
		{false, true, false},
	} {
		if got := wantProgress(tc.terminal, tc.asJSON); got != tc.want {
			t.Errorf("wantProgress(terminal=%v, json=%v) = %v, want %v", tc.terminal, tc.asJSON, got, tc.want)
		}
	}
}

// TestProgressOnlyOnATerminal runs widgetd check --types as a real process:
// with stderr a pipe its output is exactly the report, no progress line;
// under a pseudo-terminal (util-linux script) the wait for tsc is announced,
// except with --json.
func TestProgressOnlyOnATerminal(t *testing.T) {
	root := typedProject(t, true, map[string]string{
		"widgets/hi/widget.json": `{"title": "Hi", "domain": "https://hi.example.com", "widgetDescription": "d"}`,
		"widgets/hi/index.ts":    "import { widget } from \"widgetd\";\ndocument.body.append(widget.host);\n",
	})
	const progress = "widgetd check --types: type-checking"

	cmd := widgetdCmd(t, root, "check", "--types")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("check --types through a pipe: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if want := "widgetd check: 1 widget(s) from sources: 0 error(s), 0 warning(s)\n"; stderr.String() != want || stdout.String() != "" {
		t.Errorf("piped output changed:\nstdout %q\nstderr %q\nwant stderr %q", stdout.String(), stderr.String(), want)
	}

	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("util-linux script is needed for the terminal case: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"check", "--types"}, true},
		{[]string{"check", "--types", "--json"}, false},
	} {
		line := "'" + exe + "' " + strings.Join(tc.args, " ")
		tty := exec.Command(script, "-qec", line, "/dev/null")
		tty.Dir = root
		tty.Env = append(os.Environ(), "WIDGETD_TEST_AS_CLI=1")
		out, err := tty.CombinedOutput()
		if err != nil {
			t.Fatalf("script -qec %s: %v\n%s", line, err, out)
		}
		if got := strings.Contains(string(out), progress); got != tc.want {
			t.Errorf("widgetd %s on a terminal: progress line printed = %v, want %v:\n%s", strings.Join(tc.args, " "), got, tc.want, out)
		}
	}
}

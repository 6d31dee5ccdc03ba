package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata (help, typesserver)")

// TestHelpGolden checks every command's help against testdata/help/<name>.golden
// (go test -run TestHelpGolden -update rewrites them): `widgetd help <cmd>`,
// `widgetd <cmd> -h` and `widgetd <cmd> --help` print the same text to stdout
// and exit 0, and the help names every flag as --name, in the usage line too.
func TestHelpGolden(t *testing.T) {
	// --cache-dir's default is the user cache folder: pin it.
	t.Setenv("XDG_CACHE_HOME", "/home/user/.cache")
	code, top, errs := runCLI(t, "help")
	if code != exitOK || errs != "" {
		t.Fatalf("widgetd help: exit %d, stderr %q", code, errs)
	}
	checkGolden(t, "widgetd", top)
	for _, alt := range [][]string{{"--help"}, {"-h"}, {"help", "help"}} {
		if code, out, errs := runCLI(t, alt...); code != exitOK || out != top || errs != "" {
			t.Errorf("widgetd %v: exit %d, stderr %q, and its help differs from widgetd help:\n%s", alt, code, errs, out)
		}
	}
	for _, c := range commands() {
		if c.run == nil {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			code, help, errs := runCLI(t, "help", c.name)
			if code != exitOK || errs != "" {
				t.Fatalf("widgetd help %s: exit %d, stderr %q", c.name, code, errs)
			}
			for _, alt := range []string{"-h", "--help"} {
				code, out, errs := runCLI(t, c.name, alt)
				if code != exitOK || errs != "" || out != help {
					t.Errorf("widgetd %s %s: exit %d, stderr %q, and its help differs from widgetd help %s:\n%s", c.name, alt, code, errs, c.name, out)
				}
			}
			if !strings.HasPrefix(help, "Usage: widgetd "+c.name) {
				t.Errorf("help does not start with its usage line:\n%s", help)
			}
			checkHelpNamesEveryFlag(t, help)
			checkGolden(t, c.name, help)
		})
	}
}

// checkHelpNamesEveryFlag asserts each flag listed under Flags: appears in
// the usage line, no flag is written with one dash, and every value
// placeholder is a name rather than the flag package's type word.
func checkHelpNamesEveryFlag(t *testing.T, help string) {
	t.Helper()
	usage, rest, _ := strings.Cut(help, "\n\n")
	_, flags, hasFlags := strings.Cut(rest, "\nFlags:\n")
	if !hasFlags {
		return
	}
	entry := regexp.MustCompile(`(?m)^  (--[a-z0-9-]+)( [A-Z]+)?$`)
	found := entry.FindAllStringSubmatch(flags, -1)
	if len(found) == 0 {
		t.Fatalf("no flag entries under Flags:\n%s", flags)
	}
	for _, m := range found {
		if !strings.Contains(usage, "["+m[1]+m[2]+"]") {
			t.Errorf("usage line lacks [%s%s]:\n%s", m[1], m[2], usage)
		}
		switch strings.TrimSpace(m[2]) {
		case "STRING", "INT", "INT64", "UINT", "FLOAT", "VALUE":
			t.Errorf("%s has the placeholder %s; back-quote a word of its help text", m[1], m[2])
		}
	}
	if regexp.MustCompile(`(?m)^\s+-[a-z]`).MatchString(flags) {
		t.Errorf("a flag is written with one dash:\n%s", flags)
	}
}

// checkGolden compares the help of command name with its golden file.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	checkGoldenFile(t, filepath.Join("testdata", "help", name+".golden"), []byte(got), "TestHelpGolden")
}

// checkGoldenFile compares got with the golden file at path; with -update
// it writes the file (and its folder) instead. test names the test that
// writes it, for the hint.
func checkGoldenFile(t *testing.T, path string, got []byte, test string) {
	t.Helper()
	if *update {
		testfiles.WriteFile(t, path, string(got))
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/widgetd -run %s -update to write it)", err, test)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (go test ./cmd/widgetd -run %s -update rewrites it):\ngot:\n%s\nwant:\n%s", path, test, got, want)
	}
}

// TestUsageErrors: a flag mistake exits 2 with the error (naming the flag
// as --name) and the usage line on stderr, and nothing on stdout.
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "--nope"}, "widgetd build: flag provided but not defined: --nope\nUsage: widgetd build ["},
		{[]string{"test", "--parallel"}, "widgetd test: flag needs an argument: --parallel\nUsage: widgetd test ["},
		{[]string{"check", "--budget-inline", "x"}, `widgetd check: invalid value "x" for flag --budget-inline`},
		{[]string{"serve", "--access-log=maybe"}, `widgetd serve: invalid boolean value "maybe" for --access-log`},
		{[]string{"version", "extra"}, "widgetd version: unexpected argument \"extra\"\nUsage: widgetd version\n"},
		{[]string{"init", "a", "b"}, `widgetd init: unexpected argument "b"`},
		{[]string{"help", "frob"}, `widgetd: unknown command "frob"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d (want %d), stdout %q, stderr lacks %q:\n%s", code, exitUsage, out, tc.want, errs)
			}
		})
	}
}

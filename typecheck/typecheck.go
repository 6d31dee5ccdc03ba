// Package typecheck runs a widget project's own TypeScript compiler
// (`tsc --noEmit`, from its node_modules) for `widgetd check --types` and
// `widgetd build --types`, and turns its output into file:line:col
// diagnostics. esbuild strips types without checking them, so this is the
// only place type errors surface. It is a top-level package, not internal,
// because cmd/widgetd and the docs' snippet tests (package docs) both run it.
package typecheck

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// ErrNoTypeScript means the project has no TypeScript installed (or no
// tsconfig.json, or no Node.js to run it); the message says how to fix it.
var ErrNoTypeScript = errors.New("cannot type-check")

// tscLine is one tsc diagnostic with --pretty false:
// "src/a.ts(3,7): error TS2322: Type 'string' is not assignable …".
var tscLine = regexp.MustCompile(`^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$`)

// Run type-checks the project in widgetsDir (its tsconfig.json) with the
// tsc of the nearest node_modules/typescript at or above widgetsDir. It
// returns the type errors (none: the project type-checks); an error means
// tsc could not run.
func Run(ctx context.Context, widgetsDir string) ([]diag.Diagnostic, error) {
	dir, err := filepath.Abs(widgetsDir)
	if err != nil {
		return nil, err
	}
	config := filepath.Join(dir, "tsconfig.json")
	if _, err := os.Stat(config); err != nil {
		return nil, fmt.Errorf("%w: no tsconfig.json in %s; widgetd init writes one (the examples' widgets/tsconfig.json works too)", ErrNoTypeScript, widgetsDir)
	}
	tsc := findTSC(dir)
	if tsc == "" {
		return nil, fmt.Errorf("%w: TypeScript is not installed in %s or a folder above it; run: (cd %s && npm install --save-dev typescript)", ErrNoTypeScript, widgetsDir, widgetsDir)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("%w: Node.js is not on PATH (tsc runs on Node.js); install it from https://nodejs.org", ErrNoTypeScript)
	}
	cmd := exec.CommandContext(ctx, node, tsc, "--noEmit", "--pretty", "false", "-p", config)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	runErr := cmd.Run()
	diags := Parse(dir, out.Bytes())
	if runErr != nil && len(diags) == 0 {
		return nil, fmt.Errorf("tsc -p %s: %v\n%s", config, runErr, strings.TrimSpace(out.String()))
	}
	return diags, nil
}

// findTSC looks for node_modules/typescript/bin/tsc in dir and its parents.
func findTSC(dir string) string {
	for {
		p := filepath.Join(dir, "node_modules", "typescript", "bin", "tsc")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Parse turns tsc --pretty false output into diagnostics; file names are
// resolved against dir (tsc's working directory) and shown relative to the
// working directory, with the source line when the file can be read.
// Indented continuation lines join the message.
func Parse(dir string, output []byte) []diag.Diagnostic {
	var diags []diag.Diagnostic
	sc := bufio.NewScanner(bytes.NewReader(output))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		m := tscLine.FindStringSubmatch(line)
		if m == nil {
			if len(diags) > 0 && strings.HasPrefix(line, " ") {
				diags[len(diags)-1].Message += "\n    " + strings.TrimSpace(line)
			}
			continue
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		diags = append(diags, diag.Diagnostic{
			File: rel(file), Line: l, Column: c,
			Message: m[6] + " (" + m[5] + ")", Source: sourceLine(file, l), Warning: m[4] == "warning",
		})
	}
	return diags
}

func sourceLine(file string, n int) string {
	data, err := os.ReadFile(file)
	if err != nil || n < 1 {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	if n > len(lines) {
		return ""
	}
	return strings.TrimRight(lines[n-1], "\r")
}

func rel(p string) string { return displaypath.Show(p) }

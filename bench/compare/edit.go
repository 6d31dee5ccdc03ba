package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/widgetd/widgetd/bench/internal/benchenv"
	"github.com/widgetd/widgetd/bundler"
)

// The one-widget edit (issue 14): the React example's App.tsx changes in a
// project of all the widgets, and the project is built again. widgetd does
// it as a fresh `widgetd build` (the CLI; compression cache warm) and through
// a long-lived Builder (what `widgetd dev` and watch loops run); Vite builds
// that widget alone (`node build.mjs MODE OUT WIDGET`, a fresh process), which
// is the least a Vite user runs after such an edit.

// editWidget is the widget edited, and editFile its file, relative to it.
const (
	editWidget = "weather"
	editFile   = "src/App.tsx"
	editMarker = `{forecast.city ?? "Unknown city"}`
)

// editResult holds the edit timings.
type editResult struct {
	cli, builder []sample
	vite         map[string][]sample // tool key → samples
	viteNames    map[string]string
}

// measureEdit copies the edited widget into a project of its own (the other
// widgets are symlinks, as in the main project) so the repository's sources
// are never written, then times runs edits per tool.
func (b *bench) measureEdit(ctx context.Context, runs int) (*editResult, error) {
	proj := filepath.Join(b.tmp, "edit-project")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		return nil, err
	}
	var editDir string
	for _, d := range b.widgets {
		dst := filepath.Join(proj, filepath.Base(d))
		if filepath.Base(d) != editWidget {
			if err := os.Symlink(d, dst); err != nil {
				return nil, err
			}
			continue
		}
		if err := benchenv.CopyWidgets(d, dst); err != nil {
			return nil, err
		}
		// React resolves from the copy's parent, as from widgets/.
		if err := os.Symlink(filepath.Join(filepath.Dir(d), "node_modules"), filepath.Join(proj, "node_modules")); err != nil {
			return nil, err
		}
		editDir = dst
	}
	if editDir == "" {
		return nil, fmt.Errorf("no %s widget to edit", editWidget)
	}
	file := filepath.Join(editDir, filepath.FromSlash(editFile))
	orig, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(string(orig), editMarker) {
		return nil, fmt.Errorf("%s lacks %s; update the benchmark's edit", file, editMarker)
	}
	n := 0
	edit := func() error {
		n++
		body := strings.Replace(string(orig), editMarker, fmt.Sprintf("Edit %d: %s", n, editMarker), 1)
		return os.WriteFile(file, []byte(body), 0o644)
	}
	res := &editResult{vite: map[string][]sample{}, viteNames: map[string]string{}}
	out := filepath.Join(b.tmp, "edit-out")
	cache := filepath.Join(b.tmp, "edit-cache")
	cli := &tool{name: "widgetd build (edit)", args: func(string) []string {
		return []string{b.bin, "build", "--widgets", proj, "--out", out, "--cache-dir", cache, "--json"}
	}}
	if res.cli, err = timeEdits(ctx, cli, runs, edit); err != nil {
		return nil, err
	}

	bl, err := bundler.New(bundler.Options{WidgetsDir: proj, OutDir: filepath.Join(b.tmp, "edit-builder-out"), CacheDir: cache})
	if err != nil {
		return nil, err
	}
	defer bl.Close()
	if _, err := bl.Build(ctx); err != nil {
		return nil, err
	}
	// Two edits first, untimed: a Builder starts tracking inputs at its
	// second build, and makes the edited widget's own esbuild context at
	// the first edit after that (a watch loop's first edits).
	for i := 0; i < builderWarmup+runs; i++ {
		if err := edit(); err != nil {
			return nil, err
		}
		start, cpu0 := time.Now(), selfCPU()
		r, err := bl.Build(ctx)
		if err != nil {
			return nil, err
		}
		if r.UpToDate {
			return nil, fmt.Errorf("edit %d: Builder found nothing to build", i)
		}
		if i >= builderWarmup {
			res.builder = append(res.builder, sample{wall: time.Since(start), cpu: selfCPU() - cpu0})
		}
	}

	for _, t := range b.tools[1:] {
		if !strings.HasPrefix(t.key, "vite8-") {
			continue
		}
		mode := strings.TrimPrefix(t.key, "vite8-")
		vt := &tool{name: t.name + " (one widget)", dir: t.dir, args: func(o string) []string {
			return []string{"node", "build.mjs", mode, o, editDir}
		}, out: filepath.Join(b.tmp, "edit-"+t.key)}
		if res.vite[t.key], err = timeEdits(ctx, vt, runs, edit); err != nil {
			return nil, err
		}
		res.viteNames[t.key] = t.name
	}
	return res, nil
}

// builderWarmup is the number of untimed edits through a Builder.
const builderWarmup = 2

// timeEdits builds once with t (untimed: the state an edit starts from),
// then runs times makes an edit and times t's build of it.
func timeEdits(ctx context.Context, t *tool, runs int, edit func() error) ([]sample, error) {
	if _, err := t.once(ctx, false); err != nil {
		return nil, err
	}
	var samples []sample
	for i := 0; i < runs; i++ {
		if err := edit(); err != nil {
			return nil, err
		}
		s, err := t.once(ctx, false)
		if err != nil {
			return nil, err
		}
		samples = append(samples, s)
	}
	return samples, nil
}

// selfCPU is this process's CPU time so far (user + system, every thread).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// coldSplit runs one more cold `widgetd build` and returns its stage split
// (from --json), to show where a cold build's time goes.
func (b *bench) coldSplit(ctx context.Context) (bundler.Timings, time.Duration, error) {
	wd := b.tools[0]
	if _, err := wd.once(ctx, true); err != nil {
		return bundler.Timings{}, 0, err
	}
	res, err := wd.widgetdResult()
	if err != nil {
		return bundler.Timings{}, 0, err
	}
	return res.Timings, res.Duration, nil
}

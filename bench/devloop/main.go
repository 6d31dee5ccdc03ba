// Command devloop measures the `widgetd dev` edit loop: it copies the example
// widgets to a temporary folder, starts the dev server on free loopback
// ports, then repeatedly edits one file of the React example
// (weather/src/App.tsx) and measures change-to-rebuilt time: from the write
// until the dev server has the new build in memory and has sent the
// live-reload event (watcher latency + incremental esbuild rebuild + HTML
// assembly). It also reports the rebuild alone. It prints median, p95, min
// and max. Target: median ≤ 100 ms on a 2-core machine.
//
// With -scale N it runs the same loop over a generated project of N widgets
// (bench/internal/scalegen: half React, half TypeScript, shared code and
// React), editing one React widget's App.tsx; -scale 3,200 runs both sizes
// and prints the ratio (issue 14: 200 widgets within 2× of 3).
//
//	go run ./bench/devloop [-widgets widgets] [-edits 50] [-scale 3,200]
//
// Needs `npm ci` in the widgets folder (React).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/widgetd/widgetd/bench/internal/benchenv"
	"github.com/widgetd/widgetd/bench/internal/scalegen"
	"github.com/widgetd/widgetd/devserver"
)

func main() {
	widgets := flag.String("widgets", "widgets", "widgets folder to copy (must contain weather/ and node_modules/)")
	edits := flag.Int("edits", 50, "number of edits to measure")
	warmup := flag.Int("warmup", 3, "edits before measuring")
	poll := flag.Duration("poll", devserver.DefaultPollInterval, "watcher poll interval")
	verbose := flag.Bool("v", false, "print the dev server's terminal output")
	scale := flag.String("scale", "", "comma-separated sizes of generated projects to measure instead of the examples, e.g. 3,200")
	flag.Parse()
	if *scale != "" {
		if err := runScale(*widgets, *scale, *edits, *warmup, *poll, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "devloop:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*widgets, *edits, *warmup, *poll, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "devloop:", err)
		os.Exit(1)
	}
}

func run(widgetsDir string, edits, warmup int, poll time.Duration, verbose bool) error {
	src, err := filepath.Abs(widgetsDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(src, "node_modules", "react", "package.json")); err != nil {
		return fmt.Errorf("React is not installed: run `npm ci` in %s", widgetsDir)
	}
	tmp, err := os.MkdirTemp("", "widgetd-devloop-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dst := filepath.Join(tmp, "widgets")
	if err := benchenv.CopyWidgets(src, dst); err != nil {
		return fmt.Errorf("copy widgets: %w", err)
	}
	if err := os.Symlink(filepath.Join(src, "node_modules"), filepath.Join(dst, "node_modules")); err != nil {
		return err
	}
	// A node_modules linking outside the project is read only from a
	// folder named in allowOutside.
	if err := os.WriteFile(filepath.Join(tmp, "widgetd.json"), []byte(fmt.Sprintf(`{"allowOutside": [%q]}`, filepath.Join(src, "node_modules"))), 0o644); err != nil {
		return err
	}
	app := filepath.Join(dst, "weather", "src", "App.tsx")
	total, rebuild, err := loop(tmp, dst, app, `{forecast.city ?? "Unknown city"}`, "weather", edits, warmup, poll, verbose)
	if err != nil {
		return err
	}
	fmt.Printf("devloop: %d edits of weather/src/App.tsx (React + CSS modules + svg), GOMAXPROCS=%d, poll %s\n", edits, runtime.GOMAXPROCS(0), poll)
	report("change-to-rebuilt", total)
	report("rebuild only     ", rebuild)
	return nil
}

// runScale measures the loop on generated projects of each size.
func runScale(widgetsDir, sizes string, edits, warmup int, poll time.Duration, verbose bool) error {
	nm, err := filepath.Abs(filepath.Join(widgetsDir, "node_modules"))
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(nm, "react", "package.json")); err != nil {
		return fmt.Errorf("React is not installed: run `npm ci` in %s", widgetsDir)
	}
	var medians []time.Duration
	var names []int
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("bad -scale entry %q", f)
		}
		tmp, err := os.MkdirTemp("", "widgetd-devloop-scale-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := scalegen.Generate(tmp, n, nm); err != nil {
			return err
		}
		total, rebuild, err := loop(tmp, filepath.Join(tmp, "widgets"), filepath.Join(tmp, scalegen.EditFile), scalegen.EditMarker, scalegen.EditWidget, edits, warmup, poll, verbose)
		if err != nil {
			return fmt.Errorf("%d widgets: %w", n, err)
		}
		fmt.Printf("devloop: %d widgets (generated), %d edits of %s, GOMAXPROCS=%d, poll %s, load average %s\n", n, edits, scalegen.EditFile, runtime.GOMAXPROCS(0), poll, benchenv.LoadAvg())
		report("change-to-rebuilt", total)
		report("rebuild only     ", rebuild)
		medians = append(medians, median(total))
		names = append(names, n)
	}
	for i := 1; i < len(medians); i++ {
		fmt.Printf("devloop: change-to-rebuilt median, %d widgets ÷ %d widgets: %.2f× (issue 14 goal: ≤ 2×)\n", names[i], names[0], float64(medians[i])/float64(medians[0]))
	}
	return nil
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// loop starts a dev server over widgets dst (project root tmp), edits app
// (prefixing marker) warmup+edits times and returns change-to-rebuilt and
// rebuild-only times of the measured edits, watching widget name's hash.
func loop(tmp, dst, app, marker, name string, edits, warmup int, poll time.Duration, verbose bool) (total, rebuild []time.Duration, err error) {
	orig, err := os.ReadFile(app)
	if err != nil {
		return nil, nil, err
	}
	if !strings.Contains(string(orig), marker) {
		return nil, nil, fmt.Errorf("%s no longer contains %s; update the benchmark's edit", app, marker)
	}

	var log io.Writer = io.Discard
	if verbose {
		log = os.Stderr
	}
	srv, err := devserver.New(devserver.Options{Root: tmp, WidgetsDir: dst, Addr: "127.0.0.1:0", Log: log, PollInterval: poll})
	if err != nil {
		return nil, nil, err
	}
	events, unsub := srv.Subscribe()
	defer unsub()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()

	first, err := next(events, 300*time.Second)
	if err != nil {
		return nil, nil, err
	}
	if !first.OK {
		return nil, nil, fmt.Errorf("first build failed: %+v", first.Diagnostics)
	}
	hash := widgetHash(first, name)

	for i := 0; i < warmup+edits; i++ {
		// Each edit changes the rendered text, so the widget hash changes.
		body := strings.Replace(string(orig), marker, fmt.Sprintf("Edit %d: %s", i, marker), 1)
		// Let the watcher settle after the previous build so edits do not
		// coalesce; the measured interval starts at the write.
		time.Sleep(poll + 20*time.Millisecond)
		start := time.Now()
		if err := os.WriteFile(app, []byte(body), 0o644); err != nil {
			return nil, nil, err
		}
		for {
			ev, err := next(events, 60*time.Second)
			if err != nil {
				return nil, nil, fmt.Errorf("edit %d: %w", i, err)
			}
			if !ev.OK {
				return nil, nil, fmt.Errorf("edit %d: build failed: %+v", i, ev.Diagnostics)
			}
			if h := widgetHash(ev, name); h != hash {
				hash = h
				if i >= warmup {
					total = append(total, time.Since(start))
					rebuild = append(rebuild, time.Duration(ev.DurationMs*float64(time.Millisecond)))
				}
				break
			}
		}
	}
	return total, rebuild, nil
}

func next(events <-chan *devserver.BuildEvent, timeout time.Duration) (*devserver.BuildEvent, error) {
	select {
	case ev, ok := <-events:
		if !ok {
			return nil, fmt.Errorf("dev server stopped")
		}
		return ev, nil
	case <-time.After(timeout):
		return nil, fmt.Errorf("no build within %s", timeout)
	}
}

func widgetHash(ev *devserver.BuildEvent, name string) string {
	for _, w := range ev.Widgets {
		if w.Name == name {
			return w.Hash
		}
	}
	return ""
}

func report(name string, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	pct := func(p float64) time.Duration {
		i := int(p*float64(len(s))+0.5) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	fmt.Printf("  %s  median %s  p95 %s  min %s  max %s\n", name, ms(pct(0.5)), ms(pct(0.95)), ms(s[0]), ms(s[len(s)-1]))
}

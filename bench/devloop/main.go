// Command devloop measures the `widgetd dev` edit loop: it copies the example
// widgets to a temporary folder, starts the dev server on free loopback
// ports, then repeatedly edits one file of the React example
// (weather/src/App.tsx) and measures change-to-rebuilt time: from the write
// until the dev server has the new build in memory and has sent the
// live-reload event (watcher latency + incremental esbuild rebuild + HTML
// assembly). It also reports the rebuild alone. It prints median, p95, min
// and max. Target: median ≤ 100 ms on a 2-core machine.
//
//	go run ./bench/devloop [-widgets widgets] [-edits 50]
//
// Needs `npm ci` in the widgets folder (React).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/widgetd/widgetd/devserver"
)

func main() {
	widgets := flag.String("widgets", "widgets", "widgets folder to copy (must contain weather/ and node_modules/)")
	edits := flag.Int("edits", 50, "number of edits to measure")
	warmup := flag.Int("warmup", 3, "edits before measuring")
	poll := flag.Duration("poll", devserver.DefaultPollInterval, "watcher poll interval")
	verbose := flag.Bool("v", false, "print the dev server's terminal output")
	flag.Parse()
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
	if err := copyTree(src, dst); err != nil {
		return fmt.Errorf("copy widgets: %w", err)
	}
	if err := os.Symlink(filepath.Join(src, "node_modules"), filepath.Join(dst, "node_modules")); err != nil {
		return err
	}
	app := filepath.Join(dst, "weather", "src", "App.tsx")
	orig, err := os.ReadFile(app)
	if err != nil {
		return err
	}
	const marker = `{forecast.city ?? "Unknown city"}`
	if !strings.Contains(string(orig), marker) {
		return fmt.Errorf("%s no longer contains %s; update the benchmark's edit", app, marker)
	}

	var log io.Writer = io.Discard
	if verbose {
		log = os.Stderr
	}
	srv, err := devserver.New(devserver.Options{Root: tmp, WidgetsDir: dst, Addr: "127.0.0.1:0", Log: log, PollInterval: poll})
	if err != nil {
		return err
	}
	events, unsub := srv.Subscribe()
	defer unsub()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()

	first, err := next(events, 60*time.Second)
	if err != nil {
		return err
	}
	if !first.OK {
		return fmt.Errorf("first build failed: %+v", first.Diagnostics)
	}
	hash := weatherHash(first)

	var total, rebuild []time.Duration
	for i := 0; i < warmup+edits; i++ {
		// Each edit changes the rendered text, so the widget hash changes.
		body := strings.Replace(string(orig), marker, fmt.Sprintf("Edit %d: %s", i, marker), 1)
		// Let the watcher settle after the previous build so edits do not
		// coalesce; the measured interval starts at the write.
		time.Sleep(poll + 20*time.Millisecond)
		start := time.Now()
		if err := os.WriteFile(app, []byte(body), 0o644); err != nil {
			return err
		}
		for {
			ev, err := next(events, 30*time.Second)
			if err != nil {
				return fmt.Errorf("edit %d: %w", i, err)
			}
			if !ev.OK {
				return fmt.Errorf("edit %d: build failed: %+v", i, ev.Diagnostics)
			}
			if h := weatherHash(ev); h != hash {
				hash = h
				if i >= warmup {
					total = append(total, time.Since(start))
					rebuild = append(rebuild, time.Duration(ev.DurationMs*float64(time.Millisecond)))
				}
				break
			}
		}
	}
	fmt.Printf("devloop: %d edits of weather/src/App.tsx (React + CSS modules + svg), GOMAXPROCS=%d, poll %s\n", edits, runtime.GOMAXPROCS(0), poll)
	report("change-to-rebuilt", total)
	report("rebuild only     ", rebuild)
	return nil
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

func weatherHash(ev *devserver.BuildEvent) string {
	for _, w := range ev.Widgets {
		if w.Name == "weather" {
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

// copyTree copies a widgets folder without node_modules.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
}

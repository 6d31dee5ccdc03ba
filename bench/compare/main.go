// Command compare builds the same widgets with widgetd and with Vite the two
// ways the ecosystem does it (vite-plugin-singlefile, like the official MCP
// Apps examples; hashed external JS/CSS, like OpenAI's examples), and prints
// cold and warm wall time per tool with ratios, output bytes raw / gzip /
// brotli per widget per tool, the bridge's weight beside the official App
// class, and PASS/MISS for the targets.
//
// Run it from the repository root after installing the npm packages (bench/run
// does both):
//
//	go run ./bench/compare [-runs 5] [-widgets widgets] [-heavy bench/heavy]
//
// Every tool runs as a fresh process per build, as a user or CI runs it:
// widgetd is the `widgetd build` binary (compiled once, untimed); Vite is
// `node bench/vite/build.mjs` (one vite.build() per widget in one process).
// Cold means nothing cached: a fresh output folder for widgetd, and
// node_modules/.vite removed for Vite. Warm is the same command again: widgetd
// then reuses the compressed files of the dist/ it finds. widgetd's time
// includes its brotli q11 + gzip 9 precompression of the files served over
// HTTP (none in the default inline mode); its HTML documents and Vite's
// output are compressed the same way afterwards, untimed, for the size table.
// It also times a one-widget edit (widgetd build, a long-lived Builder, and
// Vite 8 building that widget) and prints a cold build's stage split.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"

	"github.com/widgetd/widgetd/bench/internal/benchenv"
)

func main() {
	var o options
	flag.IntVar(&o.runs, "runs", 5, "timed cold+warm runs per tool (median reported)")
	flag.StringVar(&o.widgets, "widgets", "widgets", "example widgets folder")
	flag.StringVar(&o.heavy, "heavy", "bench/heavy", "folder of heavy benchmark widgets")
	flag.StringVar(&o.vite, "vite", "bench/vite", "folder holding the Vite 8 install (and v7/ for Vite 7)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder with every tool's output")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

type options struct {
	runs                 int
	widgets, heavy, vite string
	keep                 bool
}

// widgetDirs lists the widget folders (those holding widget.json) under each
// of dirs, sorted by name; names must be unique across dirs.
func widgetDirs(dirs ...string) ([]string, error) {
	seen := map[string]string{}
	var out []string
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			return nil, fmt.Errorf("widgets folder: %w", err)
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			if _, err := os.Stat(filepath.Join(p, "widget.json")); err != nil {
				continue
			}
			if prev, ok := seen[e.Name()]; ok {
				return nil, fmt.Errorf("widget %q is in both %s and %s", e.Name(), prev, d)
			}
			seen[e.Name()] = d
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, err
			}
			out = append(out, abs)
		}
	}
	sort.Slice(out, func(i, j int) bool { return filepath.Base(out[i]) < filepath.Base(out[j]) })
	if len(out) == 0 {
		return nil, fmt.Errorf("no widget folders in %s", strings.Join(dirs, ", "))
	}
	return out, nil
}

// checkInstalled reports a missing node_modules with the command that fixes it.
func checkInstalled(dirs ...string) error {
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "node_modules")); err != nil {
			return fmt.Errorf("%s has no node_modules; run `npm ci` there (bench/run does)", d)
		}
	}
	return nil
}

func run(ctx context.Context, o options) error {
	if o.runs < 1 {
		return fmt.Errorf("-runs must be at least 1")
	}
	if _, err := os.Stat("go.mod"); err != nil {
		return fmt.Errorf("run from the repository root: %w", err)
	}
	if err := checkInstalled(o.widgets, o.heavy, o.vite); err != nil {
		return err
	}
	dirs, err := widgetDirs(o.widgets, o.heavy)
	if err != nil {
		return err
	}
	tmp, remove, err := benchenv.WorkDir("compare", o.keep)
	if err != nil {
		return err
	}
	defer remove()

	env, err := newBench(ctx, tmp, o, dirs)
	if err != nil {
		return err
	}
	fmt.Println(env.machine())
	if err := env.measure(ctx, o.runs); err != nil {
		return err
	}
	if err := env.measureNoCompress(ctx, o.runs); err != nil {
		return err
	}
	if err := env.measureRebuild(ctx, o.runs); err != nil {
		return err
	}
	if env.edit, err = env.measureEdit(ctx, o.runs); err != nil {
		return err
	}
	if env.split, env.splitTotal, err = env.coldSplit(ctx); err != nil {
		return err
	}
	sizes, err := env.sizes(ctx)
	if err != nil {
		return err
	}
	bridge, err := env.bridgeWeight()
	if err != nil {
		return err
	}
	env.report(os.Stdout, sizes, bridge)
	return nil
}

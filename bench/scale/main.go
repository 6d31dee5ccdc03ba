// Command scale measures how widgetd's cost grows with the number of widgets,
// beside Vite 8 run the way OpenAI's build-all does (one vite.build() per
// widget in one Node process, hashed external JS/CSS). For generated projects
// of 1, 10, 50, 200 and 500 widgets (alternating React and plain TypeScript,
// sharing helpers, a stylesheet and React) it measures:
//
//   - cold build: `widgetd build` as a fresh process, nothing cached (median
//     of -runs), with its stage split from --json, peak RSS from rusage;
//   - no-op build: the same command again, nothing changed;
//   - one-widget edit: one React widget's App.tsx changed, then `widgetd
//     build` again (fresh process: re-bundles everything, compression cached),
//     and the same edit through a long-lived Builder (esbuild incremental, as
//     `widgetd dev` and watch loops run it);
//   - assets.Load of the resulting dist/: time and heap retained;
//   - Vite 8: cold build of every widget, and the build of the edited widget
//     alone, each a fresh Node process, peak RSS from rusage.
//
// It prints Markdown tables with ratios and writes bench/out/scale.svg (the
// curves) and bench/out/scale.json.
//
//	go run ./bench/scale [-sizes 1,10,50,200,500] [-vite-max 500] [-runs 3]
//	go run ./bench/scale -gen DIR -n 50   # only write a project (to profile)
//	go run ./bench/scale -replot bench/out/scale.json   # redraw the chart
//
// Needs `npm ci` in widgets/ (React) and bench/vite/ (Vite 8).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/bench/internal/scalegen"
)

type options struct {
	sizes   []int
	viteMax int
	runs    int
	edits   int
	out     string
	vite    string
	widgets string
	keep    bool
}

func main() {
	var o options
	sizes := flag.String("sizes", "1,10,50,200,500", "project sizes (widgets), comma-separated")
	flag.IntVar(&o.viteMax, "vite-max", 500, "largest project Vite builds (0: none)")
	flag.IntVar(&o.runs, "runs", 3, "timed widgetd cold builds per size (median)")
	flag.IntVar(&o.edits, "edits", 5, "one-widget edits per size (median)")
	flag.StringVar(&o.out, "out", "bench/out", "folder for scale.svg and scale.json")
	flag.StringVar(&o.vite, "vite", "bench/vite", "Vite 8 install (bench/vite)")
	flag.StringVar(&o.widgets, "widgets", "widgets", "folder whose node_modules holds React")
	flag.BoolVar(&o.keep, "keep", false, "keep the generated projects and outputs")
	gen := flag.String("gen", "", "only generate a project of -n widgets into this folder")
	replot := flag.String("replot", "", "only redraw -out/scale.svg from this scale.json")
	n := flag.Int("n", 50, "widgets for -gen")
	flag.Parse()
	for _, s := range strings.Split(*sizes, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 1 {
			fmt.Fprintf(os.Stderr, "scale: bad -sizes entry %q\n", s)
			os.Exit(2)
		}
		o.sizes = append(o.sizes, v)
	}
	nm, err := filepath.Abs(filepath.Join(o.widgets, "node_modules"))
	if err == nil {
		_, err = os.Stat(filepath.Join(nm, "react", "package.json"))
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "scale: React is not installed: run `npm ci` in %s (%v)\n", o.widgets, err)
		os.Exit(1)
	}
	if *replot != "" {
		if err := redraw(*replot, o.out); err != nil {
			fmt.Fprintln(os.Stderr, "scale:", err)
			os.Exit(1)
		}
		return
	}
	if *gen != "" {
		if err := scalegen.Generate(*gen, *n, nm); err != nil {
			fmt.Fprintln(os.Stderr, "scale:", err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o, nm); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

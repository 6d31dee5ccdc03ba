package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bench/internal/benchenv"
	"github.com/widgetd/widgetd/bench/internal/scalegen"
	"github.com/widgetd/widgetd/bundler"
)

// proc is one child process run, as scale.json records it.
type proc = benchenv.Proc

// point is every measurement for one project size.
type point struct {
	Widgets int `json:"widgets"`
	// widgetd, fresh process each
	Cold        proc            `json:"cold"`
	ColdTimings bundler.Timings `json:"coldTimings"`
	NoOp        proc            `json:"noop"`
	EditCLI     proc            `json:"editCli"`
	// EditBuilder is the median one-widget edit through a long-lived
	// Builder (esbuild incremental).
	EditBuilder time.Duration `json:"editBuilderNs"`
	// assets.Load of the cold build's dist/
	LoadTime time.Duration `json:"loadNs"`
	LoadHeap uint64        `json:"loadHeapBytes"`
	DistSize int64         `json:"distBytes"`
	// Vite 8 (zero when not run at this size)
	ViteCold proc `json:"viteCold"`
	ViteEdit proc `json:"viteEdit"`
}

type report struct {
	Time    string  `json:"time"`
	Machine string  `json:"machine"`
	Load    string  `json:"loadBefore"`
	LoadEnd string  `json:"loadAfter"`
	Vite    string  `json:"vite"`
	Points  []point `json:"points"`
}

// medianProc returns the run with the median wall time.
func medianProc(ps []proc) proc {
	s := append([]proc(nil), ps...)
	sort.Slice(s, func(i, j int) bool { return s[i].Wall < s[j].Wall })
	return s[len(s)/2]
}

func run(ctx context.Context, o options, nodeModules string) error {
	if _, err := os.Stat("go.mod"); err != nil {
		return fmt.Errorf("run from the repository root: %w", err)
	}
	vite, err := filepath.Abs(o.vite)
	if err != nil {
		return err
	}
	if o.viteMax > 0 {
		if _, err := os.Stat(filepath.Join(vite, "node_modules", "vite")); err != nil {
			return fmt.Errorf("%s has no node_modules; run `npm ci` there (bench/run does)", o.vite)
		}
	}
	tmp, remove, err := benchenv.WorkDir("scale", o.keep)
	if err != nil {
		return err
	}
	defer remove()
	bin := filepath.Join(tmp, "widgetd")
	fmt.Fprintln(os.Stderr, "scale: compiling widgetd")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/widgetd").CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/widgetd: %w\n%s", err, out)
	}
	rep := &report{Time: time.Now().UTC().Format(time.RFC3339), Machine: machine(), Load: benchenv.LoadAvg()}
	if o.viteMax > 0 {
		if rep.Vite, err = benchenv.PkgVersion(vite, "vite"); err != nil {
			rep.Vite = benchenv.Unknown
		}
	}
	for _, n := range o.sizes {
		fmt.Fprintf(os.Stderr, "scale: %d widgets\n", n)
		p, err := measureSize(ctx, o, tmp, bin, vite, nodeModules, n)
		if err != nil {
			return fmt.Errorf("%d widgets: %w", n, err)
		}
		rep.Points = append(rep.Points, *p)
	}
	rep.LoadEnd = benchenv.LoadAvg()
	printReport(os.Stdout, rep)
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(rep, "", "  ")
	if err := os.WriteFile(filepath.Join(o.out, "scale.json"), data, 0o644); err != nil {
		return err
	}
	svg := chart(rep)
	if err := os.WriteFile(filepath.Join(o.out, "scale.svg"), svg, 0o644); err != nil {
		return err
	}
	fmt.Printf("\nwrote %s and %s\n", filepath.Join(o.out, "scale.svg"), filepath.Join(o.out, "scale.json"))
	return nil
}

func measureSize(ctx context.Context, o options, tmp, bin, vite, nodeModules string, n int) (*point, error) {
	root := filepath.Join(tmp, fmt.Sprintf("p%d", n))
	if err := scalegen.Generate(root, n, nodeModules); err != nil {
		return nil, err
	}
	p := &point{Widgets: n}
	out := filepath.Join(root, "dist")
	cache := filepath.Join(root, "cache")
	build := func() (proc, []byte, error) {
		return benchenv.RunTimed(ctx, root, bin, "build", "--root", root, "--out", out, "--cache-dir", cache, "--json")
	}
	// Cold: nothing cached (untimed first run warms the page cache).
	var colds []proc
	timings := map[time.Duration]bundler.Timings{}
	for i := 0; i <= o.runs; i++ {
		os.RemoveAll(out)
		os.RemoveAll(cache)
		c, stdout, err := build()
		if err != nil {
			return nil, err
		}
		if i == 0 {
			continue
		}
		var env struct {
			Result bundler.Result `json:"result"`
		}
		if err := json.Unmarshal(stdout, &env); err != nil {
			return nil, fmt.Errorf("widgetd --json: %w", err)
		}
		timings[c.Wall] = env.Result.Timings
		colds = append(colds, c)
	}
	p.Cold = medianProc(colds)
	p.ColdTimings = timings[p.Cold.Wall]

	var err error
	if p.LoadTime, p.LoadHeap, p.DistSize, err = measureLoad(out); err != nil {
		return nil, err
	}
	if p.NoOp, _, err = build(); err != nil {
		return nil, err
	}
	file := filepath.Join(root, scalegen.EditFile)
	orig, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	edit := func(i int) error {
		body := strings.Replace(string(orig), scalegen.EditMarker, fmt.Sprintf("%s{%q}", scalegen.EditMarker, fmt.Sprintf("edit %d: ", i)), 1)
		if body == string(orig) {
			return fmt.Errorf("%s lacks %s", file, scalegen.EditMarker)
		}
		return os.WriteFile(file, []byte(body), 0o644)
	}
	// One-widget edit, CLI: a fresh process after each edit.
	var edits []proc
	for i := 0; i < o.edits; i++ {
		if err := edit(i); err != nil {
			return nil, err
		}
		e, _, err := build()
		if err != nil {
			return nil, err
		}
		edits = append(edits, e)
	}
	p.EditCLI = medianProc(edits)
	if p.EditBuilder, err = measureBuilderEdits(ctx, root, filepath.Join(tmp, "builder-out"), o.edits, edit); err != nil {
		return nil, err
	}
	if err := os.WriteFile(file, orig, 0o644); err != nil {
		return nil, err
	}
	if n <= o.viteMax {
		if err := measureVite(ctx, p, root, vite, n); err != nil {
			return nil, err
		}
	}
	os.RemoveAll(out)
	os.RemoveAll(cache)
	return p, nil
}

// measureBuilderEdits builds the project with one Builder, then times
// rebuilds after each edit (median), as `widgetd dev` or a watch loop runs.
func measureBuilderEdits(ctx context.Context, root, out string, edits int, edit func(int) error) (time.Duration, error) {
	os.RemoveAll(out)
	defer os.RemoveAll(out)
	b, err := bundler.New(bundler.Options{Root: root, OutDir: out, CacheDir: filepath.Join(root, "cache")})
	if err != nil {
		return 0, err
	}
	defer b.Close()
	if _, err := b.Build(ctx); err != nil {
		return 0, err
	}
	// Two untimed edits: a Builder tracks inputs from its second build and
	// makes the edited widget's own esbuild context at the edit after that.
	const warmup = 2
	var d []time.Duration
	for i := 0; i < warmup+edits; i++ {
		if err := edit(100 + i); err != nil {
			return 0, err
		}
		start := time.Now()
		res, err := b.Build(ctx)
		if err != nil {
			return 0, err
		}
		if res.UpToDate {
			return 0, fmt.Errorf("edit %d: build was up to date", i)
		}
		if i >= warmup {
			d = append(d, time.Since(start))
		}
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2], nil
}

// measureLoad loads dist/ with package assets and returns the time, the heap
// the registry keeps, and the bytes on disk.
func measureLoad(dir string) (time.Duration, uint64, int64, error) {
	var size int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	reg, err := assets.Load(os.DirFS(dir))
	took := time.Since(start)
	if err != nil {
		return 0, 0, 0, err
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(reg)
	var heap uint64
	if after.HeapAlloc > before.HeapAlloc {
		heap = after.HeapAlloc - before.HeapAlloc
	}
	return took, heap, size, nil
}

// measureVite builds every widget with Vite 8 (external JS/CSS, one
// vite.build() per widget in one process, node_modules/.vite removed first),
// then the edited widget alone.
func measureVite(ctx context.Context, p *point, root, vite string, n int) error {
	var dirs []string
	for i := 0; i < n; i++ {
		dirs = append(dirs, filepath.Join(root, "widgets", scalegen.WidgetName(i)))
	}
	out := filepath.Join(root, "vite-out")
	os.RemoveAll(filepath.Join(vite, "node_modules", ".vite"))
	var err error
	fmt.Fprintf(os.Stderr, "scale: vite 8, %d widgets\n", n)
	if p.ViteCold, _, err = benchenv.RunTimed(ctx, vite, append([]string{"node", "build.mjs", "external", out}, dirs...)...); err != nil {
		return err
	}
	var edits []proc
	for i := 0; i < 3; i++ {
		e, _, err := benchenv.RunTimed(ctx, vite, "node", "build.mjs", "external", filepath.Join(root, "vite-edit"), filepath.Join(root, "widgets", scalegen.EditWidget))
		if err != nil {
			return err
		}
		edits = append(edits, e)
	}
	p.ViteEdit = medianProc(edits)
	os.RemoveAll(out)
	return nil
}

func machine() string {
	return fmt.Sprintf("%d CPUs, GOMAXPROCS=%d, %s, node %s", runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), benchenv.NodeVersion())
}

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

	"github.com/widgetd/widgetd/bench/internal/benchenv"
	"github.com/widgetd/widgetd/bundler"
)

// sample is one timed build: wall time and the child's CPU time (user+sys),
// which is less disturbed by other load on a shared machine.
type sample struct{ wall, cpu time.Duration }

// tool is one way of building all the widgets, run as a child process.
type tool struct {
	key, name string
	widgetd   bool
	version   string
	// args is the command line; out is the tool's output folder.
	args func(out string) []string
	dir  string // working directory
	// cache is removed before a cold run (Vite's node_modules/.vite).
	cache      string
	out        string
	cold, warm []sample
	lastOutput []byte
}

// bench holds the prepared inputs and tools of one comparison.
type bench struct {
	tmp     string
	project string   // widgetd project: symlinks to every widget folder
	widgets []string // absolute widget folders
	tools   []*tool
	bin     string
	vite    string // bench/vite, absolute
	// noCompress is widgetd in-process without precompression (informational).
	noCompress []sample
	// rebuild is a fresh `widgetd build --no-cache` over its own dist/: it
	// re-bundles, taking compression from that dist/ (informational).
	rebuild    []sample
	loadBefore string
	loadAfter  string

	// edit is the one-widget edit; split a cold build's stage timings.
	edit       *editResult
	split      bundler.Timings
	splitTotal time.Duration
}

func newBench(ctx context.Context, tmp string, o options, dirs []string) (*bench, error) {
	b := &bench{tmp: tmp, widgets: dirs, project: filepath.Join(tmp, "project"), bin: filepath.Join(tmp, "widgetd")}
	var err error
	if b.vite, err = filepath.Abs(o.vite); err != nil {
		return nil, err
	}
	// One widgetd project over all widgets: symlinks keep each widget's
	// node_modules resolution (esbuild follows them to the real path).
	if err := os.MkdirAll(b.project, 0o755); err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if err := os.Symlink(d, filepath.Join(b.project, filepath.Base(d))); err != nil {
			return nil, err
		}
	}
	fmt.Fprintln(os.Stderr, "compare: compiling widgetd")
	build := exec.CommandContext(ctx, "go", "build", "-o", b.bin, "./cmd/widgetd")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/widgetd: %w", err)
	}
	b.tools = append(b.tools, &tool{
		key: "widgetd", name: "widgetd build", widgetd: true, version: bundler.Version,
		args: func(out string) []string {
			return []string{b.bin, "build", "--widgets", b.project, "--out", out, "--json", "--cache-dir", filepath.Join(tmp, "widgetd-cache")}
		},
		// Removed for cold runs, like Vite's node_modules/.vite.
		cache: filepath.Join(tmp, "widgetd-cache"),
		out:   filepath.Join(tmp, "out-widgetd"),
	})
	installs := []struct{ dir, label string }{{b.vite, "vite8"}, {filepath.Join(b.vite, "v7"), "vite7"}}
	for _, in := range installs {
		if _, err := os.Stat(filepath.Join(in.dir, "node_modules")); err != nil {
			if in.label == "vite8" {
				return nil, fmt.Errorf("%s has no node_modules; run `npm ci` there", in.dir)
			}
			fmt.Fprintf(os.Stderr, "compare: %s not installed, skipping it (npm ci in %s)\n", in.label, in.dir)
			continue
		}
		ver, err := benchenv.PkgVersion(in.dir, "vite")
		if err != nil {
			return nil, err
		}
		major := strings.SplitN(ver, ".", 2)[0]
		for _, mode := range []string{"singlefile", "external"} {
			label := map[string]string{"singlefile": "+ singlefile", "external": "external JS/CSS"}[mode]
			b.tools = append(b.tools, &tool{
				key: in.label + "-" + mode, name: "vite " + major + " " + label, version: ver,
				dir: in.dir,
				args: func(out string) []string {
					return append([]string{"node", "build.mjs", mode, out}, dirs...)
				},
				cache: filepath.Join(in.dir, "node_modules", ".vite"),
				out:   filepath.Join(tmp, "out-"+in.label+"-"+mode),
			})
		}
	}
	return b, nil
}

// once runs one build of t into t.out and returns its times.
func (t *tool) once(ctx context.Context, cold bool) (sample, error) {
	if cold {
		if err := os.RemoveAll(t.out); err != nil {
			return sample{}, err
		}
		if t.cache != "" {
			if err := os.RemoveAll(t.cache); err != nil {
				return sample{}, err
			}
		}
	}
	p, stdout, err := benchenv.RunTimed(ctx, t.dir, t.args(t.out)...)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", t.name, err)
	}
	t.lastOutput = stdout
	return sample{wall: p.Wall, cpu: p.CPU}, nil
}

// measure warms the page cache with one untimed build per tool, then runs
// cold and warm builds runs times, interleaving the tools so that load from
// elsewhere on the machine spreads over all of them.
func (b *bench) measure(ctx context.Context, runs int) error {
	b.loadBefore = benchenv.LoadAvg()
	for _, t := range b.tools {
		if _, err := t.once(ctx, true); err != nil {
			return err
		}
	}
	for i := 0; i < runs; i++ {
		fmt.Fprintf(os.Stderr, "compare: run %d/%d\n", i+1, runs)
		for _, t := range b.tools {
			c, err := t.once(ctx, true)
			if err != nil {
				return err
			}
			w, err := t.once(ctx, false)
			if err != nil {
				return err
			}
			t.cold, t.warm = append(t.cold, c), append(t.warm, w)
		}
	}
	b.loadAfter = benchenv.LoadAvg()
	return nil
}

// measureNoCompress times widgetd's pipeline in process with precompression
// off: what the bundling itself costs, to show where the cold time goes.
func (b *bench) measureNoCompress(ctx context.Context, runs int) error {
	for i := 0; i < runs; i++ {
		out := filepath.Join(b.tmp, fmt.Sprintf("nocompress-%d", i))
		start := time.Now()
		if _, err := bundler.Build(ctx, bundler.Options{WidgetsDir: b.project, OutDir: out, NoCompress: true}); err != nil {
			return fmt.Errorf("widgetd (no compression): %w", err)
		}
		b.noCompress = append(b.noCompress, sample{wall: time.Since(start)})
	}
	return nil
}

// measureRebuild times `widgetd build --no-cache` run again over the dist/ it
// wrote: a fresh process that bundles everything again and takes every
// compressed file from the previous dist/. It is the warm build when the
// no-op shortcut does not apply (widgetd's own warm row never bundles).
func (b *bench) measureRebuild(ctx context.Context, runs int) error {
	out := filepath.Join(b.tmp, "rebuild")
	once := func() (time.Duration, error) {
		cmd := exec.CommandContext(ctx, b.bin, "build", "--widgets", b.project, "--out", out, "--no-cache", "--json")
		start := time.Now()
		if data, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("widgetd build --no-cache: %w\n%s", err, data)
		}
		return time.Since(start), nil
	}
	if _, err := once(); err != nil {
		return err
	}
	for i := 0; i < runs; i++ {
		d, err := once()
		if err != nil {
			return err
		}
		b.rebuild = append(b.rebuild, sample{wall: d})
	}
	return nil
}

// widgetdResult decodes the `widgetd build --json` output of t's last run.
func (t *tool) widgetdResult() (*bundler.Result, error) {
	var env struct {
		OK     bool            `json:"ok"`
		Result *bundler.Result `json:"result"`
	}
	if err := json.Unmarshal(t.lastOutput, &env); err != nil {
		return nil, fmt.Errorf("widgetd --json output: %w", err)
	}
	if !env.OK || env.Result == nil {
		return nil, fmt.Errorf("widgetd --json output: not ok")
	}
	return env.Result, nil
}

// median returns the median and min of one field of samples.
func median(s []sample, field func(sample) time.Duration) (med, min time.Duration) {
	d := make([]time.Duration, len(s))
	for i, x := range s {
		d[i] = field(x)
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	if len(d) == 0 {
		return 0, 0
	}
	if len(d)%2 == 0 {
		return (d[len(d)/2-1] + d[len(d)/2]) / 2, d[0]
	}
	return d[len(d)/2], d[0]
}

func wallOf(s sample) time.Duration { return s.wall }
func cpuOf(s sample) time.Duration  { return s.cpu }

// machine describes the machine and tool versions.
func (b *bench) machine() string {
	cpu := "unknown"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := "unknown"
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			var kb int64
			if _, err := fmt.Sscanf(line, "MemTotal: %d kB", &kb); err == nil {
				mem = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
				break
			}
		}
	}
	var vites []string
	for _, t := range b.tools {
		if !t.widgetd && strings.HasSuffix(t.key, "-singlefile") {
			sf, _ := benchenv.PkgVersion(t.dir, "vite-plugin-singlefile")
			pr, _ := benchenv.PkgVersion(t.dir, "@vitejs/plugin-react")
			vites = append(vites, fmt.Sprintf("vite %s (plugin-react %s, vite-plugin-singlefile %s)", t.version, pr, sf))
		}
	}
	return fmt.Sprintf("machine: %d CPUs (nproc), %s, %s RAM; GOMAXPROCS=%d\n"+
		"versions: widgetd %s, %s, node %s, %s\nload average before: %s",
		runtime.NumCPU(), cpu, mem, runtime.GOMAXPROCS(0), bundler.Version, runtime.Version(), benchenv.NodeVersion(),
		strings.Join(vites, ", "), benchenv.LoadAvg())
}

// Command frameworks measures widgetd against Vite 8 on widgets that need
// npm compilers: a React + Tailwind CSS v4 widget (Vite: @tailwindcss/vite +
// @vitejs/plugin-react) and a Vue widget (Vite: @vitejs/plugin-vue), the same
// sources for both tools, in one run:
//
//   - Node helper start-up (widgetd's one Node process), on its own;
//
//   - cold: a fresh process builds both widgets (widgetd build with brotli
//     and gzip; Vite's production build, which compresses nothing); also
//     widgetd's pipeline without compression in a fresh Builder;
//
//   - after one edit: widgetd's long-lived Builder (what `widgetd dev`
//     keeps) rebuilding after a .tsx or .vue edit, against Vite's build
//     after the same edit, and against `vite build --watch`'s rebuild.
//
//     go run ./bench/frameworks [-runs 5]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/widgetd/widgetd/bench/internal/benchenv"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/jscompile"
)

func main() {
	runs := flag.Int("runs", 5, "timed runs per measurement (median reported)")
	flag.Parse()
	if err := run(*runs); err != nil {
		fmt.Fprintln(os.Stderr, "frameworks:", err)
		os.Exit(1)
	}
}

// edits are the files edited for the incremental measurements, per widget.
var edits = map[string]string{
	"tw-dashboard": "widgets/tw-dashboard/src/StatCard.tsx",
	"vue-board":    "widgets/vue-board/src/components/TaskCard.vue",
}

func run(runs int) error {
	here, err := filepath.Abs(filepath.Join("bench", "frameworks"))
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(here, "node_modules", "vite")); err != nil {
		fmt.Println("frameworks: npm ci in bench/frameworks")
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir, cmd.Stdout, cmd.Stderr = here, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp("", "widgetd-frameworks-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	project := filepath.Join(tmp, "project")
	if err := os.CopyFS(project, os.DirFS(filepath.Join(here, "src"))); err != nil {
		return err
	}
	if err := os.Symlink(filepath.Join(here, "node_modules"), filepath.Join(project, "node_modules")); err != nil {
		return err
	}
	// A node_modules linking outside the project needs allowOutside.
	if err := os.WriteFile(filepath.Join(project, "widgetd.json"), []byte(fmt.Sprintf(`{"allowOutside": [%q]}`, filepath.Join(here, "node_modules"))), 0o644); err != nil {
		return err
	}
	bin := filepath.Join(tmp, "widgetd")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/widgetd").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	fmt.Printf("frameworks: load average %s\n", benchenv.LoadAvg())
	fmt.Printf("frameworks: %d runs each, median (min); node %s, %d widgets: tw-dashboard (React + Tailwind v4), vue-board (Vue SFCs)\n\n",
		runs, benchenv.NodeVersion(), len(edits))

	// Node helper start-up.
	var startup []time.Duration
	for i := 0; i < runs; i++ {
		h := jscompile.New(jscompile.Options{Dir: project})
		if err := h.Call(context.Background(), "ping", nil, nil); err != nil {
			return err
		}
		startup = append(startup, h.StartupDuration())
		h.Close()
	}
	fmt.Printf("Node helper start-up (exec to ready):  %s\n\n", stat(startup))

	// Cold builds, fresh processes, alternating tools.
	var wCold, wPipe, vCold []time.Duration
	// One untimed build of each warms the page cache.
	if _, err := timed(project, bin, "build", "--no-cache", "--out", filepath.Join(tmp, "warm-w")); err != nil {
		return err
	}
	if _, err := timed(here, "node", "build.mjs", filepath.Join(project, "widgets"), filepath.Join(tmp, "warm-v")); err != nil {
		return err
	}
	cpuTimes = map[string][]time.Duration{}
	for i := 0; i < runs; i++ {
		out := filepath.Join(tmp, "w-"+strconv.Itoa(i))
		d, err := timed(project, bin, "build", "--no-cache", "--out", out)
		if err != nil {
			return err
		}
		wCold = append(wCold, d)
		d, err = timed(here, "node", "build.mjs", filepath.Join(project, "widgets"), filepath.Join(tmp, "v-"+strconv.Itoa(i)))
		if err != nil {
			return err
		}
		vCold = append(vCold, d)
		start, cpu0 := time.Now(), cpuNow()
		b, err := bundler.New(bundler.Options{Root: project, OutDir: filepath.Join(tmp, "p"), NoCache: true, NoCompress: true})
		if err != nil {
			return err
		}
		if _, err := b.Assemble(context.Background()); err != nil {
			return err
		}
		b.Close() // reaps the Node helper, so its CPU time counts below
		wPipe = append(wPipe, time.Since(start))
		cpuTimes["pipeline"] = append(cpuTimes["pipeline"], cpuNow()-cpu0)
	}
	fmt.Println("cold (both widgets)                     median (min)")
	fmt.Printf("  widgetd build (fresh process, br+gz)  %s\n", stat(wCold))
	fmt.Printf("  widgetd pipeline, no compression      %s   (fresh Builder in-process, Node start included)\n", stat(wPipe))
	fmt.Printf("  Vite 8 build (fresh process)          %s\n", stat(vCold))
	fmt.Printf("  ratio Vite / widgetd build            %.2fx   (goal >= 3x)\n", ratio(vCold, wCold))
	fmt.Printf("  CPU time (user+sys): widgetd build %s, Vite %s, ratio %.2fx\n", stat(cpuTimes["widgetd"]), stat(cpuTimes["node"]), ratio(cpuTimes["node"], cpuTimes["widgetd"]))
	fmt.Printf("  ratio Vite / widgetd pipeline         %.2fx\n", ratio(vCold, wPipe))
	fmt.Printf("  CPU time (user+sys): widgetd pipeline %s (Node helper included), ratio Vite / it %.2fx\n\n", stat(cpuTimes["pipeline"]), ratio(cpuTimes["node"], cpuTimes["pipeline"]))

	// After one edit.
	b, err := bundler.New(bundler.Options{Root: project, OutDir: filepath.Join(tmp, "dev"), NoCache: true, NoCompress: true})
	if err != nil {
		return err
	}
	defer b.Close()
	if _, err := b.Assemble(context.Background()); err != nil {
		return err
	}
	names := []string{"tw-dashboard", "vue-board"}
	fmt.Println("after one edit                          median (min)")
	for _, name := range names {
		file := filepath.Join(project, edits[name])
		var inc, vBuild, vWatch []time.Duration
		for i := 0; i < runs; i++ {
			if err := edit(file, i); err != nil {
				return err
			}
			start := time.Now()
			if _, err := b.Assemble(context.Background()); err != nil {
				return err
			}
			inc = append(inc, time.Since(start))
			d, err := timed(here, "node", "build.mjs", filepath.Join(project, "widgets"), filepath.Join(tmp, "ve"))
			if err != nil {
				return err
			}
			vBuild = append(vBuild, d)
			out, err := exec.Command("node", filepath.Join(here, "build.mjs"), filepath.Join(project, "widgets"), filepath.Join(tmp, "vw"), "--watch", file).Output()
			if err != nil {
				return fmt.Errorf("vite --watch: %w", err)
			}
			ms, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
			if err != nil {
				return fmt.Errorf("vite --watch printed %q", out)
			}
			vWatch = append(vWatch, time.Duration(ms*float64(time.Millisecond)))
		}
		fmt.Printf("  %s (%s)\n", name, filepath.Base(file))
		fmt.Printf("    widgetd rebuild (long-lived Builder, both widgets) %s\n", stat(inc))
		fmt.Printf("    Vite 8 build after the edit (both widgets)         %s   ratio %.1fx (goal >= 20x)\n", stat(vBuild), ratio(vBuild, inc))
		fmt.Printf("    vite build --watch rebuild (this widget only)      %s   ratio %.1fx\n", stat(vWatch), ratio(vWatch, inc))
	}
	return nil
}

var (
	paddingClass = regexp.MustCompile(`className="card p-\d+ `)
	taskTitle    = regexp.MustCompile(`<span>\{\{ props\.task\.title \}\}( #\d+)?`)
)

// edit changes file's content the way an author would: another padding
// utility in the .tsx (Tailwind must generate it), new text in the .vue
// template. Consecutive edits always differ.
func edit(file string, i int) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var s string
	if strings.HasSuffix(file, ".vue") {
		s = taskTitle.ReplaceAllString(string(data), fmt.Sprintf("<span>{{ props.task.title }} #%d", i))
	} else {
		s = paddingClass.ReplaceAllString(string(data), fmt.Sprintf(`className="card p-%d `, 5+i%3))
	}
	if s == string(data) {
		return fmt.Errorf("edit of %s changed nothing", file)
	}
	return os.WriteFile(file, []byte(s), 0o644)
}

// cpuTimes collects the CPU time (user + sys) of the timed child processes.
var cpuTimes = map[string][]time.Duration{}

// timed runs a command and returns its wall time; its CPU time is added to
// cpuTimes under the command's name.
func timed(dir, name string, args ...string) (time.Duration, error) {
	p, _, err := benchenv.RunTimed(context.Background(), dir, append([]string{name}, args...)...)
	if err != nil {
		return 0, err
	}
	key := filepath.Base(name)
	cpuTimes[key] = append(cpuTimes[key], p.CPU)
	return p.Wall, nil
}

// cpuNow is the CPU time (user + sys) of this process and its reaped
// children so far.
func cpuNow() time.Duration {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(children.Utime) + tv(children.Stime)
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func stat(ds []time.Duration) string {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return fmt.Sprintf("%8.1f ms (%6.1f)", ms(median(ds)), ms(s[0]))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func ratio(peer, ours []time.Duration) float64 { return ms(median(peer)) / ms(median(ours)) }

package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/widgetd/widgetd/bench/internal/benchenv"
)

// Targets from issues 7 and 14.
const (
	warmTarget = 20.0 // widgetd ≥ 20× faster with its caches warm (issue 7)
	sizeTarget = 0.9  // widgetd brotli ≤ 0.9 × Vite gzip, every widget
	editTarget = 20.0 // one-widget edit ≥ 20× faster than Vite 8's build of that widget (issue 14)
)

// coldTarget is the cold-build target against a tool (issue 14: ≥ 5× Vite 8
// singlefile, ≥ 20× Vite 7; the external pipelines are held to the same).
func coldTarget(key string) float64 {
	if strings.HasPrefix(key, "vite7-") {
		return 20
	}
	return 5
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func kb(n int64) string { return fmt.Sprintf("%.2f kB", float64(n)/1000) }

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISS"
}

// slower flags a ratio below 1, where widgetd took longer.
func slower(r float64) string {
	if r < 1 {
		return " (widgetd slower)"
	}
	return ""
}

// report prints the tables (Markdown, so they paste into BENCHMARKS.md) and
// the targets.
func (b *bench) report(w io.Writer, st *sizeTable, bridge []bridgeRow) {
	wd := b.tools[0]
	runs := len(wd.cold)
	wdCold, _ := median(wd.cold, wallOf)
	wdWarm, _ := median(wd.warm, wallOf)

	fmt.Fprintf(w, "load average after: %s\n\n", benchenv.LoadAvg())
	fmt.Fprintf(w, "## Build time: %d widgets (%d runs, median; min in brackets)\n\n", len(b.widgets), runs)
	fmt.Fprintln(w, "Cold: nothing cached (fresh output folder and cache folder; node_modules/.vite removed). Warm: the same")
	fmt.Fprintln(w, "command again with nothing changed (widgetd sees from its build record that no input changed and leaves")
	fmt.Fprintln(w, "dist/ as it is; the forced-rebuild row below re-bundles instead). Each build is a fresh process.")
	fmt.Fprintln(w, "widgetd's time includes brotli q11 + gzip 9 of every file served over HTTP (none in inline mode: the HTML")
	fmt.Fprintln(w, "documents reach hosts through resources/read); Vite compresses nothing.")
	fmt.Fprintln(w, "Ratio = tool's wall time ÷ widgetd's (above 1: widgetd is that many times faster).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| tool | cold wall | warm wall | cold CPU | warm CPU | cold ratio | warm ratio |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	for _, t := range b.tools {
		cm, cmin := median(t.cold, wallOf)
		wm, wmin := median(t.warm, wallOf)
		cc, _ := median(t.cold, cpuOf)
		wc, _ := median(t.warm, cpuOf)
		fmt.Fprintf(w, "| %s | %s (%s) | %s (%s) | %s | %s | %.2f× | %.2f× |\n", t.name, ms(cm), ms(cmin), ms(wm), ms(wmin),
			ms(cc), ms(wc), float64(cm)/float64(wdCold), float64(wm)/float64(wdWarm))
	}
	nm, nmin := median(b.noCompress, wallOf)
	fmt.Fprintf(w, "| widgetd, no precompression (Go API in process; for reference) | %s (%s) | | | | | |\n", ms(nm), ms(nmin))
	if len(b.rebuild) > 0 {
		rm, rmin := median(b.rebuild, wallOf)
		fmt.Fprintf(w, "| widgetd build --no-cache again (re-bundles; compression from dist/; for reference) | | %s (%s) | | | | |\n", ms(rm), ms(rmin))
	}

	t := b.split
	fmt.Fprintf(w, "\n## Where a cold widgetd build goes (one more cold run, `widgetd build --json` timings)\n\n")
	fmt.Fprintln(w, "| esbuild | render | minify | hash | compress | write | discover + record + bridge wait | build total |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|")
	ms1 := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", ms1(t.Esbuild), ms1(t.Render), ms1(t.Minify), ms1(t.Hash), ms1(t.Compress), ms1(t.Write),
		ms1(t.Discover+t.Record+t.BridgeWait), ms1(b.splitTotal))
	if b.splitTotal > 0 {
		fmt.Fprintf(w, "\nesbuild is %.0f%% of the build (the rest of the process wall time is process start and exit).\n", 100*float64(t.Esbuild)/float64(b.splitTotal))
	}

	var editCLI, editBuilder time.Duration
	if e := b.edit; e != nil {
		editCLI, _ = median(e.cli, wallOf)
		editBuilder, _ = median(e.builder, wallOf)
		cliCPU, _ := median(e.cli, cpuOf)
		fmt.Fprintf(w, "\n## One-widget edit (%s/%s changed, %d runs, median)\n\n", editWidget, editFile, len(e.cli))
		fmt.Fprintln(w, "| build after the edit | wall | CPU | Vite 8 singlefile ÷ this | Vite 8 external ÷ this |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
		vs, _ := median(e.vite["vite8-singlefile"], wallOf)
		ve, _ := median(e.vite["vite8-external"], wallOf)
		fmt.Fprintf(w, "| widgetd build (fresh process, all widgets re-bundled, compression cached) | %s | %s | %.1f× | %.1f× |\n", ms(editCLI), ms(cliCPU), float64(vs)/float64(editCLI), float64(ve)/float64(editCLI))
		builderCPU, _ := median(e.builder, cpuOf)
		fmt.Fprintf(w, "| widgetd Builder.Build (long-lived, as widgetd dev / watch loops: that widget alone; after %d untimed edits) | %s | %s | %.1f× | %.1f× |\n",
			builderWarmup, ms1(editBuilder), ms1(builderCPU), float64(vs)/float64(editBuilder), float64(ve)/float64(editBuilder))
		vsCPU, _ := median(e.vite["vite8-singlefile"], cpuOf)
		veCPU, _ := median(e.vite["vite8-external"], cpuOf)
		fmt.Fprintf(w, "\nBy CPU time (less disturbed by other load): Vite 8 singlefile ÷ widgetd build %.1f×, ÷ Builder %.1f×; Vite 8 external ÷ widgetd build %.1f×, ÷ Builder %.1f×.\n\n",
			float64(vsCPU)/float64(cliCPU), float64(vsCPU)/float64(builderCPU), float64(veCPU)/float64(cliCPU), float64(veCPU)/float64(builderCPU))
		for _, k := range []string{"vite8-singlefile", "vite8-external"} {
			m, _ := median(e.vite[k], wallOf)
			c, _ := median(e.vite[k], cpuOf)
			fmt.Fprintf(w, "| %s, that widget alone (fresh process) | %s | %s | | |\n", e.viteNames[k], ms(m), ms(c))
		}
	}

	fmt.Fprintf(w, "\n## Output per widget (bytes the host loads: every file; gzip 9 and brotli q11)\n\n")
	fmt.Fprintln(w, "widgetd (inline) is the default `widgetd build`; widgetd (external) is `--public-url`, untimed, for reference.")
	fmt.Fprintln(w, "Last column: widgetd (inline) brotli ÷ this tool's gzip (target ≤ 0.90 against each Vite pipeline).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| widget | tool | files | raw | gzip | brotli | widgetd br ÷ gzip |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|")
	for _, name := range st.widgets {
		wdBr := st.by[name][wd.key].brotli
		for _, k := range st.tools {
			z, ok := st.by[name][k]
			if !ok {
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %.2f |\n", name, st.names[k], z.files, kb(z.raw), kb(z.gzip), kb(z.brotli),
				float64(wdBr)/float64(z.gzip))
		}
	}

	fmt.Fprintf(w, "\n## Bridge weight (gzip 9, brotli q11)\n\n")
	fmt.Fprintln(w, "| code | measured as | raw | gzip | brotli |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|")
	for _, r := range bridge {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", r.name, r.how, kb(r.raw), kb(r.gzip), kb(r.brotli))
	}

	fmt.Fprintf(w, "\n## Targets\n\n")
	pass, total := 0, 0
	check := func(ok bool, format string, args ...any) {
		total++
		if ok {
			pass++
		}
		fmt.Fprintf(w, "- %s %s\n", verdict(ok), fmt.Sprintf(format, args...))
	}
	for _, t := range b.tools[1:] {
		cm, _ := median(t.cold, wallOf)
		r := float64(cm) / float64(wdCold)
		check(r >= coldTarget(t.key), "cold: widgetd %.2f× faster than %s%s (target ≥ %.0f×; %s vs %s)", r, t.name, slower(r), coldTarget(t.key), ms(wdCold), ms(cm))
	}
	for _, t := range b.tools[1:] {
		wm, _ := median(t.warm, wallOf)
		r := float64(wm) / float64(wdWarm)
		check(r >= warmTarget, "warm: widgetd %.2f× faster than %s%s (target ≥ %.0f×; %s vs %s)", r, t.name, slower(r), warmTarget, ms(wdWarm), ms(wm))
	}
	if e := b.edit; e != nil {
		for _, k := range []string{"vite8-singlefile", "vite8-external"} {
			m, _ := median(e.vite[k], wallOf)
			r := float64(m) / float64(editCLI)
			check(r >= editTarget, "one-widget edit, widgetd build (CLI): %.1f× faster than %s of that widget (target ≥ %.0f×; %s vs %s)", r, e.viteNames[k], editTarget, ms(editCLI), ms(m))
			r = float64(m) / float64(editBuilder)
			check(r >= editTarget, "one-widget edit, long-lived Builder: %.1f× faster than %s of that widget (target ≥ %.0f×; %s vs %s)", r, e.viteNames[k], editTarget, ms1(editBuilder), ms(m))
		}
	}
	for _, t := range b.tools[1:] {
		for _, name := range st.widgets {
			z, ok := st.by[name][t.key]
			if !ok {
				continue
			}
			br := st.by[name][wd.key].brotli
			r := float64(br) / float64(z.gzip)
			check(r <= sizeTarget, "size %s: widgetd brotli %d B = %.3f × %s gzip %d B (target ≤ %.2f)", name, br, r, t.name, z.gzip, sizeTarget)
		}
	}
	fmt.Fprintf(w, "\n%d of %d targets met\n", pass, total)
}

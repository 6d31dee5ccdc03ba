package main

import (
	"fmt"
	"io"
	"time"
)

// Targets from issue 7.
const (
	coldTarget = 10.0 // widgetd ≥ 10× faster than Vite, nothing cached
	warmTarget = 20.0 // widgetd ≥ 20× faster with its compression cache warm
	sizeTarget = 0.9  // widgetd brotli ≤ 0.9 × Vite gzip, every widget
)

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

	fmt.Fprintf(w, "load average after: %s\n\n", loadavg())
	fmt.Fprintf(w, "## Build time: %d widgets (%d runs, median; min in brackets)\n\n", len(b.widgets), runs)
	fmt.Fprintln(w, "Cold: nothing cached (fresh output folder and cache folder; node_modules/.vite removed). Warm: the same")
	fmt.Fprintln(w, "command again with nothing changed (widgetd sees from its build record that no input changed and leaves")
	fmt.Fprintln(w, "dist/ as it is; the forced-rebuild row below re-bundles instead). Each build is a fresh process.")
	fmt.Fprintln(w, "widgetd's time includes brotli q11 + gzip 9 of every file; Vite compresses nothing.")
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
		check(r >= coldTarget, "cold: widgetd %.2f× faster than %s%s (target ≥ %.0f×; %s vs %s)", r, t.name, slower(r), coldTarget, ms(wdCold), ms(cm))
	}
	for _, t := range b.tools[1:] {
		wm, _ := median(t.warm, wallOf)
		r := float64(wm) / float64(wdWarm)
		check(r >= warmTarget, "warm: widgetd %.2f× faster than %s%s (target ≥ %.0f×; %s vs %s)", r, t.name, slower(r), warmTarget, ms(wdWarm), ms(wm))
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

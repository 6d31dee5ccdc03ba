package main

import (
	"fmt"
	"io"
	"time"
)

func ms(d time.Duration) string {
	if d == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000)
}

func ms1(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func mib(b int64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

func ratio(a, b time.Duration) string {
	if a == 0 || b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f×", float64(a)/float64(b))
}

// printReport prints the tables of a run.
func printReport(w io.Writer, r *report) {
	fmt.Fprintf(w, "scale: %s; %s; load average before %s, after %s; vite %s\n\n", r.Time, r.Machine, r.Load, r.LoadEnd, r.Vite)
	fmt.Fprintln(w, "### widgetd build (fresh process each; cold = nothing cached)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| widgets | cold wall | cold CPU | cold RSS | no-op wall | edit: CLI | edit: Builder | assets.Load | Load heap | dist/ |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range r.Points {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p.Widgets, ms(p.Cold.Wall), ms(p.Cold.CPU), mib(p.Cold.MaxRSS),
			ms(p.NoOp.Wall), ms(p.EditCLI.Wall), ms(p.EditBuilder), fmt.Sprintf("%.1f ms", float64(p.LoadTime.Microseconds())/1000), mib(int64(p.LoadHeap)), mib(p.DistSize))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "### Cold build split (ms, from `widgetd build --json` timings)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| widgets | esbuild | render | minify | hash | compress | write | other | total |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range r.Points {
		t := p.ColdTimings
		sum := t.Discover + t.Esbuild + t.Render + t.Minify + t.Hash + t.Compress + t.Write + t.Record + t.BridgeWait
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", p.Widgets, ms1(t.Esbuild), ms1(t.Render), ms1(t.Minify), ms1(t.Hash),
			ms1(t.Compress), ms1(t.Write), ms1(t.Discover+t.Record+t.BridgeWait), ms1(sum))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "### widgetd vs Vite 8 (one vite.build() per widget, external JS/CSS; fresh process each)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| widgets | vite cold wall | vite cold CPU | vite RSS | widgetd cold wall | cold: vite ÷ widgetd | vite build of the edited widget | edit: vite ÷ widgetd CLI | edit: vite ÷ widgetd Builder |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range r.Points {
		if p.ViteCold.Wall == 0 {
			fmt.Fprintf(w, "| %d | not run | | | %s | | | | |\n", p.Widgets, ms(p.Cold.Wall))
			continue
		}
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", p.Widgets, ms(p.ViteCold.Wall), ms(p.ViteCold.CPU), mib(p.ViteCold.MaxRSS),
			ms(p.Cold.Wall), ratio(p.ViteCold.Wall, p.Cold.Wall), ms(p.ViteEdit.Wall), ratio(p.ViteEdit.Wall, p.EditCLI.Wall), ratio(p.ViteEdit.Wall, p.EditBuilder))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "### Growth")
	fmt.Fprintln(w)
	var p50, p500 *point
	for i := range r.Points {
		switch r.Points[i].Widgets {
		case 50:
			p50 = &r.Points[i]
		case 500:
			p500 = &r.Points[i]
		}
	}
	if p50 != nil && p500 != nil {
		verdict := "PASS"
		if p500.Cold.Wall > 10*p50.Cold.Wall {
			verdict = "MISS"
		}
		fmt.Fprintf(w, "- 500 widgets cold ÷ 50 widgets cold: wall %s, CPU %s (goal ≤ 10×: %s); peak RSS %s at 500\n",
			ratio(p500.Cold.Wall, p50.Cold.Wall), ratio(p500.Cold.CPU, p50.Cold.CPU), verdict, mib(p500.Cold.MaxRSS))
		if p500.ViteCold.Wall > 0 && p50.ViteCold.Wall > 0 {
			fmt.Fprintf(w, "- Vite 8: 500 ÷ 50: wall %s, CPU %s; peak RSS %s at 500\n", ratio(p500.ViteCold.Wall, p50.ViteCold.Wall), ratio(p500.ViteCold.CPU, p50.ViteCold.CPU), mib(p500.ViteCold.MaxRSS))
		}
	}
	for _, p := range r.Points {
		fmt.Fprintf(w, "- %d widgets: widgetd %.1f ms per widget cold", p.Widgets, float64(p.Cold.Wall.Microseconds())/1000/float64(p.Widgets))
		if p.ViteCold.Wall > 0 {
			fmt.Fprintf(w, ", Vite 8 %.1f ms per widget", float64(p.ViteCold.Wall.Microseconds())/1000/float64(p.Widgets))
		}
		fmt.Fprintln(w)
	}
}

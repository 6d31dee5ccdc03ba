package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"time"
)

// series is one line of a panel.
type series struct {
	name   string
	color  string
	dashed bool
	x, y   []float64
}

// panel is one log-log chart.
type panel struct {
	title, yLabel string
	unit          func(float64) string
	lines         []series
}

// chart draws the run as an SVG of three panels: build wall time, build CPU
// time (user + system of the process, which other load on a shared machine
// disturbs far less) and peak RSS against the number of widgets, on log
// scales. Hand-written SVG keeps
// the benchmark free of dependencies.
func chart(r *report) []byte {
	var wd, wdEdit, wdBuilder, vite, viteEdit, wdRSS, viteRSS series
	wd = series{name: "widgetd build, cold", color: "#1a7f37"}
	wdEdit = series{name: "widgetd build after a one-widget edit", color: "#1a7f37", dashed: true}
	wdBuilder = series{name: "widgetd one-widget edit, long-lived Builder (dev/watch)", color: "#54aeff", dashed: true}
	vite = series{name: "Vite 8, cold (one vite.build() per widget)", color: "#cf222e"}
	viteEdit = series{name: "Vite 8 build of the edited widget", color: "#cf222e", dashed: true}
	wdRSS = series{name: "widgetd build, cold", color: "#1a7f37"}
	viteRSS = series{name: "Vite 8, cold", color: "#cf222e"}
	wdCPU, wdEditCPU, viteCPU, viteEditCPU := wd, wdEdit, vite, viteEdit
	wdCPU.x, wdEditCPU.x, viteCPU.x, viteEditCPU.x = nil, nil, nil, nil
	wdCPU.y, wdEditCPU.y, viteCPU.y, viteEditCPU.y = nil, nil, nil, nil
	sec := func(d time.Duration) float64 { return d.Seconds() }
	for _, p := range r.Points {
		n := float64(p.Widgets)
		add := func(s *series, v float64) {
			if v > 0 {
				s.x, s.y = append(s.x, n), append(s.y, v)
			}
		}
		add(&wd, sec(p.Cold.Wall))
		add(&wdEdit, sec(p.EditCLI.Wall))
		add(&wdBuilder, sec(p.EditBuilder))
		add(&vite, sec(p.ViteCold.Wall))
		add(&viteEdit, sec(p.ViteEdit.Wall))
		add(&wdCPU, sec(p.Cold.CPU))
		add(&wdEditCPU, sec(p.EditCLI.CPU))
		add(&viteCPU, sec(p.ViteCold.CPU))
		add(&viteEditCPU, sec(p.ViteEdit.CPU))
		add(&wdRSS, float64(p.Cold.MaxRSS)/(1<<20))
		add(&viteRSS, float64(p.ViteCold.MaxRSS)/(1<<20))
	}
	secs := func(v float64) string {
		if v < 1 {
			return fmt.Sprintf("%g ms", math.Round(v*1000))
		}
		return fmt.Sprintf("%g s", v)
	}
	mibs := func(v float64) string { return fmt.Sprintf("%g MiB", v) }
	panels := []panel{
		{title: "Build time (wall)", yLabel: "time", unit: secs, lines: []series{vite, viteEdit, wd, wdEdit, wdBuilder}},
		{title: "Build CPU time (user + system)", yLabel: "CPU", unit: secs, lines: []series{viteCPU, viteEditCPU, wdCPU, wdEditCPU}},
		{title: "Peak RSS of the build process", yLabel: "RSS", unit: mibs, lines: []series{viteRSS, wdRSS}},
	}
	const pw, ph = 440.0, 340.0
	var b bytes.Buffer
	width, height := 3*pw+60, ph+150
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="system-ui, sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="20" y="24" font-size="15" font-weight="600">widgetd vs Vite 8: generated projects of 1–500 widgets (half React, half TypeScript)</text>`+"\n")
	fmt.Fprintf(&b, `<text x="20" y="42" fill="#57606a">%s · %s · load average %s → %s · log–log scales</text>`+"\n", html.EscapeString(r.Time), html.EscapeString(r.Machine), r.Load, r.LoadEnd)
	for i, p := range panels {
		drawPanel(&b, p, 20+float64(i)*(pw+20), 60, pw, ph)
	}
	// Legend under both panels.
	y := 60 + ph + 20
	for i, s := range panels[0].lines {
		x := 20.0 + float64(i%3)*(pw+20)
		yy := y + float64(i/3)*18
		dash := ""
		if s.dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="2.5"%s/><text x="%g" y="%g">%s</text>`+"\n",
			x, yy-4, x+28, yy-4, s.color, dash, x+36, yy, html.EscapeString(s.name))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func drawPanel(b *bytes.Buffer, p panel, x0, y0, w, h float64) {
	const left, bottom, top, right = 62.0, 36.0, 24.0, 12.0
	minX, maxX := math.Inf(1), math.Inf(-1)
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, s := range p.lines {
		for i := range s.x {
			minX, maxX = math.Min(minX, s.x[i]), math.Max(maxX, s.x[i])
			minY, maxY = math.Min(minY, s.y[i]), math.Max(maxY, s.y[i])
		}
	}
	if math.IsInf(minX, 0) {
		return
	}
	lx0, lx1 := math.Log10(minX), math.Log10(maxX)
	if lx1 == lx0 {
		lx1 = lx0 + 1
	}
	ly0, ly1 := math.Floor(math.Log10(minY)), math.Ceil(math.Log10(maxY))
	if ly1 == ly0 {
		ly1 = ly0 + 1
	}
	px := func(v float64) float64 { return x0 + left + (math.Log10(v)-lx0)/(lx1-lx0)*(w-left-right) }
	py := func(v float64) float64 { return y0 + h - bottom - (math.Log10(v)-ly0)/(ly1-ly0)*(h-top-bottom) }
	fmt.Fprintf(b, `<text x="%g" y="%g" font-size="13" font-weight="600">%s</text>`+"\n", x0+left, y0+14, html.EscapeString(p.title))
	fmt.Fprintf(b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#d0d7de"/>`+"\n", x0+left, y0+top, w-left-right, h-top-bottom)
	// Horizontal grid: 1, 2, 5 per decade.
	for d := ly0; d <= ly1; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if math.Log10(v) > ly1+1e-9 {
				continue
			}
			yy := py(v)
			stroke := "#eaeef2"
			if m == 1 {
				stroke = "#d0d7de"
			}
			fmt.Fprintf(b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s"/>`, x0+left, yy, x0+w-right, yy, stroke)
			fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="end" fill="#57606a">%s</text>`+"\n", x0+left-6, yy+4, html.EscapeString(p.unit(roundSig(v))))
		}
	}
	// Vertical ticks at the measured sizes.
	seen := map[float64]bool{}
	for _, s := range p.lines {
		for _, v := range s.x {
			if seen[v] {
				continue
			}
			seen[v] = true
			xx := px(v)
			fmt.Fprintf(b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#eaeef2"/>`, xx, y0+top, xx, y0+h-bottom)
			fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle" fill="#57606a">%g</text>`+"\n", xx, y0+h-bottom+16, v)
		}
	}
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle" fill="#57606a">widgets in the project</text>`+"\n", x0+left+(w-left-right)/2, y0+h-4)
	for _, s := range p.lines {
		if len(s.x) == 0 {
			continue
		}
		var pts bytes.Buffer
		for i := range s.x {
			fmt.Fprintf(&pts, "%.1f,%.1f ", px(s.x[i]), py(s.y[i]))
		}
		dash := ""
		if s.dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"%s/>`+"\n", bytes.TrimSpace(pts.Bytes()), s.color, dash)
		for i := range s.x {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s: %g widgets, %s</title></circle>`+"\n",
				px(s.x[i]), py(s.y[i]), s.color, html.EscapeString(s.name), s.x[i], html.EscapeString(p.unit(roundSig(s.y[i]))))
		}
	}
}

// roundSig rounds to three significant digits for labels.
func roundSig(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

// redraw rewrites out/scale.svg from a scale.json.
func redraw(jsonFile, out string) error {
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		return err
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("%s: %w", jsonFile, err)
	}
	return os.WriteFile(filepath.Join(out, "scale.svg"), chart(&r), 0o644)
}

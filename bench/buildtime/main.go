// Command buildtime measures `widgetd build` on a widgets folder: cold (empty
// output, nothing cached: every file compressed), warm (a fresh builder over
// the previous dist/, so compression is reused) and incremental (the same
// builder again, as `widgetd dev` and `go generate` loops do). It prints the
// median and min of each over several runs.
//
//	go run ./bench/buildtime [-widgets widgets] [-runs 5]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/widgetd/widgetd/bundler"
)

func main() {
	widgets := flag.String("widgets", "widgets", "widgets folder to build")
	runs := flag.Int("runs", 5, "runs per mode")
	publicURL := flag.String("public-url", "", "build in external mode with this public URL")
	flag.Parse()
	if err := run(*widgets, *publicURL, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "buildtime:", err)
		os.Exit(1)
	}
}

func run(widgets, publicURL string, runs int) error {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "widgetd-buildtime-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	opts := func(out string) bundler.Options {
		// NoCache: nothing but the previous dist/ may feed compression.
		return bundler.Options{WidgetsDir: widgets, OutDir: out, PublicURL: publicURL, NoCache: true}
	}
	var cold, warm, incr []time.Duration
	var last *bundler.Result
	for i := 0; i < runs; i++ {
		out := filepath.Join(tmp, fmt.Sprintf("cold-%d", i))
		start := time.Now()
		res, err := bundler.Build(ctx, opts(out))
		if err != nil {
			return err
		}
		cold = append(cold, time.Since(start))
		last = res

		start = time.Now()
		if _, err := bundler.Build(ctx, opts(out)); err != nil {
			return err
		}
		warm = append(warm, time.Since(start))
	}
	b, err := bundler.New(opts(filepath.Join(tmp, "incr")))
	if err != nil {
		return err
	}
	defer b.Close()
	if _, err := b.Build(ctx); err != nil {
		return err
	}
	for i := 0; i < runs; i++ {
		start := time.Now()
		if _, err := b.Build(ctx); err != nil {
			return err
		}
		incr = append(incr, time.Since(start))
	}
	var raw, br, gz int64
	for _, w := range last.Widgets {
		for _, f := range w.Files {
			raw, br, gz = raw+f.Size, br+f.Brotli, gz+f.Gzip
		}
	}
	fmt.Printf("widgetd build: %d widgets from %s, %d runs each, GOMAXPROCS=%d\n", len(last.Widgets), widgets, runs, runtimeProcs())
	fmt.Printf("output: %d bytes raw, %d brotli, %d gzip\n\n", raw, br, gz)
	fmt.Printf("%-34s %10s %10s\n", "mode", "median", "min")
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{
		{"cold (empty dist, no cache)", cold},
		{"warm (fresh process, dist cached)", warm},
		{"incremental (same builder)", incr},
	} {
		med, min := stats(m.d)
		fmt.Printf("%-34s %10s %10s\n", m.name, med.Round(time.Millisecond/10), min.Round(time.Millisecond/10))
	}
	return nil
}

func stats(d []time.Duration) (median, min time.Duration) {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2], s[0]
}

// Command shapes measures output size, not time: the three widget shapes the
// official MCP Apps examples are written in (vanilla DOM; ext-apps App + zod;
// React + ext-apps' useApp), written for this benchmark in
// bench/vite/shapes/, built by widgetd and by Vite 8 + vite-plugin-singlefile
// (how those examples inline) in the same run. It prints each document's raw,
// gzip 9 and brotli q11 bytes and widgetd ÷ Vite per encoding. Hosts receive
// an inline widget as JSON text through resources/read, so raw and gzip are
// what a user pays; brotli is there for the origin case.
//
// Run it from the repository root after `npm ci` in bench/vite (bench/run
// does both):
//
//	go run ./bench/shapes [-keep] [-before DIR]
//
// -before DIR also builds the shapes with the widgetd of another checkout
// (e.g. `git archive <commit> | tar -x -C DIR`), in the same run, as rows
// "widgetd before".
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

// shapes are the widget folders under bench/vite/shapes/, in table order.
var shapes = []string{"vanilla", "app-zod", "react-app"}

func main() {
	keep := flag.Bool("keep", false, "keep the temporary folder holding both tools' output")
	vite := flag.String("vite", "bench/vite", "folder holding the Vite 8 install and shapes/")
	before := flag.String("before", "", "a checkout of another widgetd to measure beside this one (rows \"widgetd before\")")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *vite, *before, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "shapes:", err)
		os.Exit(1)
	}
}

// sizes is one document's size in each encoding.
type sizes struct{ raw, gzip, brotli int }

func run(ctx context.Context, viteDir, beforeDir string, keep bool) error {
	if _, err := os.Stat(filepath.Join(viteDir, "node_modules", "vite")); err != nil {
		return fmt.Errorf("vite is not installed; run `npm ci` in %s first: %w", viteDir, err)
	}
	tmp, err := os.MkdirTemp("", "widgetd-shapes-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("output kept in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	src, err := filepath.Abs(filepath.Join(viteDir, "shapes"))
	if err != nil {
		return err
	}
	wdOut, beforeOut, viteOut := filepath.Join(tmp, "widgetd"), filepath.Join(tmp, "widgetd-before"), filepath.Join(tmp, "vite")
	if err := buildShapes(ctx, ".", filepath.Join(tmp, "widgetd-bin"), src, wdOut); err != nil {
		return err
	}
	if beforeDir != "" {
		if err := buildShapes(ctx, beforeDir, filepath.Join(tmp, "widgetd-before-bin"), src, beforeOut); err != nil {
			return fmt.Errorf("before: %w", err)
		}
	}
	args := []string{filepath.Join(viteDir, "build.mjs"), "singlefile", viteOut}
	for _, s := range shapes {
		args = append(args, filepath.Join(src, s))
	}
	if out, err := command(ctx, "node", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("vite build: %w\n%s", err, out)
	}
	fmt.Println("| shape | tool | raw | gzip | brotli | raw ÷ Vite | gzip ÷ Vite | brotli ÷ Vite |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	for _, s := range shapes {
		v, err := measure(filepath.Join(viteOut, s, "index.html"))
		if err != nil {
			return err
		}
		rows := []struct{ tool, dir string }{{"widgetd", wdOut}}
		if beforeDir != "" {
			rows = append([]struct{ tool, dir string }{{"widgetd before", beforeOut}}, rows...)
		}
		for _, r := range rows {
			wd, err := measure(filepath.Join(r.dir, s+".*.html"))
			if err != nil {
				return err
			}
			fmt.Printf("| %s | %s | %s | %s | %s | %.2f | %.2f | %.2f |\n", s, r.tool, kB(wd.raw), kB(wd.gzip), kB(wd.brotli),
				ratio(wd.raw, v.raw), ratio(wd.gzip, v.gzip), ratio(wd.brotli, v.brotli))
		}
		fmt.Printf("| %s | vite 8 + singlefile | %s | %s | %s | | | |\n", s, kB(v.raw), kB(v.gzip), kB(v.brotli))
	}
	return nil
}

// buildShapes builds the widgetd command of the checkout in dir into bin and
// builds the shapes in src with it into out.
func buildShapes(ctx context.Context, dir, bin, src, out string) error {
	if out, err := command(ctx, "go", "build", "-C", dir, "-o", bin, "./cmd/widgetd").CombinedOutput(); err != nil {
		return fmt.Errorf("build widgetd in %s: %w\n%s", dir, err, out)
	}
	if out, err := command(ctx, bin, "build", "--widgets", src, "--out", out, "--no-cache").CombinedOutput(); err != nil {
		return fmt.Errorf("widgetd build: %w\n%s", err, out)
	}
	return nil
}

func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, name, args...)
}

// measure compresses the one file matching pattern with gzip 9 and brotli
// q11 (widgetd's own settings for precompressed files).
func measure(pattern string) (sizes, error) {
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) != 1 {
		return sizes{}, fmt.Errorf("want one file matching %s, found %d (%v)", pattern, len(files), err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return sizes{}, err
	}
	var g, b bytes.Buffer
	gw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	bw := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 22})
	for _, w := range []interface {
		Write([]byte) (int, error)
		Close() error
	}{gw, bw} {
		if _, err := w.Write(data); err != nil {
			return sizes{}, err
		}
		if err := w.Close(); err != nil {
			return sizes{}, err
		}
	}
	return sizes{raw: len(data), gzip: g.Len(), brotli: b.Len()}, nil
}

func kB(n int) string { return fmt.Sprintf("%.2f kB", float64(n)/1000) }

func ratio(a, b int) float64 { return float64(a) / float64(b) }

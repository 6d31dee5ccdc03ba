package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/widgetd/widgetd/bundler"
)

// BenchmarkScanJSReactDOM scans the minified react-dom client bundle
// (≈625 kB); b.SetBytes makes the output a throughput in MB/s.
func BenchmarkScanJSReactDOM(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "widgets", "node_modules", "react-dom", "cjs", "react-dom-client.production.js"))
	if err != nil {
		b.Fatalf("run npm ci in widgets/: %v", err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		scanJS(src)
	}
}

// BenchmarkRunExamples runs every rule over the example widgets, assembled
// once outside the timer.
func BenchmarkRunExamples(b *testing.B) {
	in, err := FromSources(context.Background(), bundler.Options{Root: ".."})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Run(context.Background(), in, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

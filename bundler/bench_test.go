package bundler

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkBuildExamples builds the example widgets (widgets/, which needs
// `npm ci`): cold is a fresh Builder and an empty output folder (everything
// compressed), warm a fresh Builder over the previous dist/ (compression
// reused, as a second `widgetd build` run), incremental the same Builder again
// (as `widgetd dev` or a watch loop).
func BenchmarkBuildExamples(b *testing.B) {
	if _, err := os.Stat("../widgets/node_modules/react"); err != nil {
		b.Fatalf("run `npm ci` in widgets/ first: %v", err)
	}
	// NoCache: only the previous dist/ may feed compression, as on a fresh machine.
	opts := func(out string) Options {
		return Options{Root: "..", WidgetsDir: "widgets", OutDir: out, NoCache: true}
	}
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := Build(ctx, opts(filepath.Join(b.TempDir(), "dist"))); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		out := filepath.Join(b.TempDir(), "dist")
		if _, err := Build(ctx, opts(out)); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := Build(ctx, opts(out)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		bl, err := New(opts(filepath.Join(b.TempDir(), "dist")))
		if err != nil {
			b.Fatal(err)
		}
		defer bl.Close()
		for b.Loop() {
			if _, err := bl.Build(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

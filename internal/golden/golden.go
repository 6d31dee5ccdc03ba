// Package golden compares what a test produced with its golden file, or
// rewrites the file when the test runs with its -update flag: one
// behaviour and one report of a difference for the goldens of every
// package (check, cspgen, typesgen, fixture, assets' wire tests).
package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the file at path. With update it writes got
// there instead (making the folder), for a reviewer to read in the diff.
// A difference fails t with the first line that differs and all of got.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file at %s (run the test with -update to accept, then review the diff); got:\n%s", path, FirstDifference(got, want), got)
	}
}

// FirstDifference says where got and want first differ: the line number
// with both lines, or which one has lines the other lacks.
func FirstDifference(got, want []byte) string {
	gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range min(len(gl), len(wl)) {
		if !bytes.Equal(gl[i], wl[i]) {
			return fmt.Sprintf("line %d:\n got %s\nwant %s\n", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("the end: %d lines, want %d\n", len(gl), len(wl))
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/testfiles"
)

func TestMedian(t *testing.T) {
	ms := func(v ...int) []sample {
		var s []sample
		for _, x := range v {
			s = append(s, sample{wall: time.Duration(x) * time.Millisecond})
		}
		return s
	}
	for _, tc := range []struct {
		name     string
		in       []sample
		med, min time.Duration
	}{
		{"empty", nil, 0, 0},
		{"one", ms(7), 7 * time.Millisecond, 7 * time.Millisecond},
		{"odd unsorted", ms(9, 1, 5), 5 * time.Millisecond, time.Millisecond},
		{"even averages the middle two", ms(4, 1, 10, 2), 3 * time.Millisecond, time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			med, min := median(tc.in, wallOf)
			if med != tc.med || min != tc.min {
				t.Errorf("median = %v, %v; want %v, %v", med, min, tc.med, tc.min)
			}
		})
	}
}

func mkWidget(t *testing.T, dir string) {
	t.Helper()
	testfiles.WriteFile(t, filepath.Join(dir, "widget.json"), "{}")
}

func TestWidgetDirs(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	mkWidget(t, filepath.Join(a, "zeta"))
	mkWidget(t, filepath.Join(a, "alpha"))
	mkWidget(t, filepath.Join(b, "mid"))
	if err := os.MkdirAll(filepath.Join(a, "node_modules", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := widgetDirs(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range got {
		if !filepath.IsAbs(d) {
			t.Errorf("%s is not absolute", d)
		}
		names = append(names, filepath.Base(d))
	}
	if strings.Join(names, ",") != "alpha,mid,zeta" {
		t.Errorf("widgets = %v, want alpha,mid,zeta (sorted, node_modules skipped)", names)
	}

	mkWidget(t, filepath.Join(b, "alpha"))
	if _, err := widgetDirs(a, b); err == nil || !strings.Contains(err.Error(), `"alpha"`) {
		t.Errorf("duplicate name: err = %v, want one naming alpha", err)
	}
	if _, err := widgetDirs(t.TempDir()); err == nil {
		t.Error("empty folder: no error")
	}
}

func TestDirSize(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("function widget() { return 42; }\n"), 500)
	tiny := []byte("x")
	testfiles.Write(t, dir, map[string]string{"assets/app.js": string(big), "index.html": string(tiny)})
	z, err := dirSize(dir)
	if err != nil {
		t.Fatal(err)
	}
	if z.files != 2 || z.raw != int64(len(big)+len(tiny)) {
		t.Errorf("files %d raw %d; want 2, %d", z.files, z.raw, len(big)+len(tiny))
	}
	// The repetitive file compresses far below its size.
	if z.gzip >= int64(len(big))/10 || z.brotli >= int64(len(big))/10 || z.brotli > z.gzip {
		t.Errorf("gzip %d brotli %d for %d raw bytes", z.gzip, z.brotli, z.raw)
	}
	// The 1-byte file must count as 1 byte in each encoding, not as its
	// larger compressed form.
	gzBig, brBig, err := compress(big)
	if err != nil {
		t.Fatal(err)
	}
	if z.gzip != int64(len(gzBig))+1 || z.brotli != int64(len(brBig))+1 {
		t.Errorf("gzip %d brotli %d; want %d and %d", z.gzip, z.brotli, len(gzBig)+1, len(brBig)+1)
	}
	if _, err := dirSize(t.TempDir()); err == nil {
		t.Error("empty folder: no error")
	}
}

package pngdiff

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

func encode(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func filled(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// TestCompare: identical images, one pixel beyond the tolerance, changes
// within it, a size mismatch and bytes that are no PNG.
func TestCompare(t *testing.T) {
	grey := color.RGBA{100, 100, 100, 255}
	base := filled(10, 10, grey)
	onePixel := filled(10, 10, grey)
	onePixel.SetRGBA(3, 4, color.RGBA{140, 100, 100, 255})
	slight := filled(10, 10, color.RGBA{110, 95, 100, 255})
	for _, c := range []struct {
		name    string
		actual  []byte
		want    float64
		wantErr string
	}{
		{"identical", encode(t, base), 0, ""},
		{"one pixel of 100", encode(t, onePixel), 0.01, ""},
		{"within tolerance", encode(t, slight), 0, ""},
		{"other size", encode(t, filled(10, 11, grey)), 1, "size 10x11, baseline 10x10"},
		{"not a png", []byte("nope"), 1, "screenshot is not a PNG"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Compare(encode(t, base), c.actual, 16)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("ratio = %v, want %v", got, c.want)
			}
		})
	}
	if _, err := Compare([]byte("nope"), encode(t, base), 0); err == nil || !strings.Contains(err.Error(), "baseline is not a PNG") {
		t.Errorf("bad baseline: %v", err)
	}
}

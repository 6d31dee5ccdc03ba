// Package pngdiff compares screenshots: the fraction of pixels whose colour
// differs by more than a tolerance. It is shared by `widgetd test`'s
// screenshot baselines (widgettest) and the dev preview's own UI
// baselines (devserver/testdata/ui), so both judge a difference alike.
package pngdiff

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
)

// Compare returns the fraction of pixels whose colour differs by more than
// tolerance (0–255) in any channel between two PNGs; images of different
// sizes, or bytes that are not a PNG, are an error.
func Compare(baseline, actual []byte, tolerance int) (float64, error) {
	a, err := png.Decode(bytes.NewReader(baseline))
	if err != nil {
		return 1, fmt.Errorf("baseline is not a PNG: %w", err)
	}
	b, err := png.Decode(bytes.NewReader(actual))
	if err != nil {
		return 1, fmt.Errorf("screenshot is not a PNG: %w", err)
	}
	return Ratio(a, b, tolerance)
}

// Ratio is Compare on decoded images.
func Ratio(a, b image.Image, tolerance int) (float64, error) {
	ab, bb := a.Bounds(), b.Bounds()
	if ab.Dx() != bb.Dx() || ab.Dy() != bb.Dy() {
		return 1, fmt.Errorf("size %dx%d, baseline %dx%d", bb.Dx(), bb.Dy(), ab.Dx(), ab.Dy())
	}
	total := ab.Dx() * ab.Dy()
	if total == 0 {
		return 0, nil
	}
	tol := uint32(tolerance) * 0x101
	differ := 0
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			if absDiff(r1, r2) > tol || absDiff(g1, g2) > tol || absDiff(b1, b2) > tol || absDiff(a1, a2) > tol {
				differ++
			}
		}
	}
	return float64(differ) / float64(total), nil
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

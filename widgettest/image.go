package widgettest

import (
	"image"

	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/internal/pngdiff"
)

// comparePNG returns the fraction of pixels whose colour differs by more
// than tolerance (0–255) in any channel; images of different sizes are an
// error (pngdiff.Compare).
func comparePNG(baseline, actual []byte, tolerance int) (float64, error) {
	return pngdiff.Compare(baseline, actual, tolerance)
}

func diffRatio(a, b image.Image, tolerance int) (float64, error) {
	return pngdiff.Ratio(a, b, tolerance)
}

// relPath shows p relative to the working directory when it is below it.
func relPath(p string) string { return displaypath.Show(p) }

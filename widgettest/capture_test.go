package widgettest

import (
	"bytes"
	"fmt"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// framePage is a page like the preview: #widget-frame shows a document of
// another origin (so another process draws it) and both count the resize
// events they see.
const framePage = `<!doctype html><html><body style="margin:0">
<div style="padding:20px 30px"><iframe id="widget-frame" src="%s" style="display:block;width:300px;height:%dpx;border:2px solid #f00"></iframe></div>
<script>window.resizes = 0; window.frameResizes = 0; window.frameReady = false;
addEventListener("resize", () => window.resizes++);
addEventListener("message", (e) => { if (e.data === "resized") window.frameResizes++; if (e.data === "ready") window.frameReady = true; });</script></body></html>`

const frameDoc = `<!doctype html><html><body style="margin:0;background:#00aa77">
<script>addEventListener("resize", () => parent.postMessage("resized", "*"));
requestAnimationFrame(() => requestAnimationFrame(() => parent.postMessage("ready", "*")));</script></body></html>`

// TestCaptureFrame: the widget frame is captured whole, border included,
// whether it fits the viewport or is taller than it; and a frame that fits
// is captured without resizing the page (Chromium's capture beyond the
// viewport resizes every frame of the page and back, which on a loaded
// machine captured the widget's stale picture).
func TestCaptureFrame(t *testing.T) {
	widget := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(frameDoc))
	}))
	defer widget.Close()
	height := 0
	// localhost and 127.0.0.1 are different sites: the frame gets its own process.
	frameURL := "http://localhost:" + strconv.Itoa(widget.Listener.Addr().(*net.TCPAddr).Port)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, framePage, frameURL, height)
	}))
	defer page.Close()

	b, _ := testBrowser(t)

	for _, tt := range []struct {
		name   string
		height int
	}{
		{"fits the viewport", 150},
		{"taller than the viewport", 1400},
	} {
		t.Run(tt.name, func(t *testing.T) {
			height = tt.height
			tab, cancelTab := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
			defer cancelTab()
			if err := chromedp.Do(tab, chromedp.EmulateViewport(800, 600), chromedp.Navigate(page.URL)); err != nil {
				t.Fatal(err)
			}
			ready := false
			for deadline := time.Now().Add(10 * time.Second); !ready; {
				if err := eval(tab, `window.frameReady`, &ready); err != nil {
					t.Fatal(err)
				}
				if time.Now().After(deadline) {
					t.Fatal("the widget frame never painted")
				}
				time.Sleep(20 * time.Millisecond)
			}
			shot, err := captureFrame(tab)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(shot))
			if err != nil {
				t.Fatal(err)
			}
			if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 304 || h != tt.height+4 {
				t.Errorf("captured %d×%d px, want the frame's 304×%d", w, h, tt.height+4)
			}
			for _, p := range []struct {
				x, y    int
				what    string
				r, g, b uint32
			}{
				{0, 0, "top-left border", 0xff, 0, 0},
				{303, tt.height + 3, "bottom-right border", 0xff, 0, 0},
				{152, tt.height + 2, "bottom border", 0xff, 0, 0},
				{152, tt.height / 2, "widget document", 0, 0xaa, 0x77},
				{152, tt.height + 1, "widget document's last row", 0, 0xaa, 0x77},
			} {
				r, g, bl, _ := img.At(p.x, p.y).RGBA()
				if r>>8 != p.r || g>>8 != p.g || bl>>8 != p.b {
					t.Errorf("%s (%d,%d) is #%02x%02x%02x, want #%02x%02x%02x", p.what, p.x, p.y, r>>8, g>>8, bl>>8, p.r, p.g, p.b)
				}
			}
			if tt.height > 600 {
				return
			}
			var counts struct{ Resizes, FrameResizes int }
			time.Sleep(300 * time.Millisecond) // resize events and the frame's message
			if err := eval(tab, `({resizes: window.resizes, frameResizes: window.frameResizes})`, &counts); err != nil {
				t.Fatal(err)
			}
			if counts.Resizes != 0 || counts.FrameResizes != 0 {
				t.Errorf("capturing a frame inside the viewport resized the page %d times and the widget frame %d times", counts.Resizes, counts.FrameResizes)
			}
		})
	}
}

func TestViewportFits(t *testing.T) {
	state := &pageState{FrameInnerWidth: 534.4, FrameInnerHeight: 97}
	for _, tt := range []struct {
		name          string
		width, height float64
		want          bool
	}{
		{"same size", 534, 97, true},
		{"a pixel of rounding", 535, 96, true},
		{"still the old height", 534, 118, false},
		{"still the old width", 768, 97, false},
		{"never measured", 0, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := viewportFits(&probe{ViewportWidth: tt.width, ViewportHeight: tt.height}, state); got != tt.want {
				t.Errorf("viewport %v×%v in a frame of %v×%v: fits %v, want %v", tt.width, tt.height, state.FrameInnerWidth, state.FrameInnerHeight, got, tt.want)
			}
		})
	}
	if viewportFits(nil, state) || viewportFits(&probe{}, nil) {
		t.Error("a missing probe or page state fits")
	}
}

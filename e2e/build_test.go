package e2e_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// build is one build of widgets: manifest entries and HTML.
type build struct {
	widgets map[string]assets.Widget
	html    map[string][]byte
}

func newBuild() *build {
	return &build{widgets: map[string]assets.Widget{}, html: map[string][]byte{}}
}

func (b *build) add(w assets.Widget, doc []byte) {
	b.widgets[w.Name] = w
	b.html[w.Name] = doc
}

// assembleInline assembles opts in memory and returns the widgets, checking
// that each is inline with no files of its own.
func assembleInline(t *testing.T, opts bundler.Options) *build {
	t.Helper()
	b, err := bundler.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := b.Assemble(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("assembled %d widgets inline in %v", len(out.Manifest.Widgets), time.Since(start).Round(time.Millisecond))
	bw := newBuild()
	for _, w := range out.Manifest.Widgets {
		if !w.Inline || len(w.Files) != 0 {
			t.Errorf("widget %s: want inline with no files, got inline=%v files=%v", w.Name, w.Inline, w.Files)
		}
		bw.add(w, out.Files[w.HTML])
	}
	return bw
}

// listenOrigin reserves a loopback address for an asset origin, which a
// build must name (its public URL) before the origin can serve the build.
// The listener is closed when the test ends.
func listenOrigin(t *testing.T) (ln net.Listener, url string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln, "http://" + ln.Addr().String()
}

// serveOn serves h on ln until the test ends.
func serveOn(t *testing.T, ln net.Listener, h http.Handler) {
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
}

// buildAndLoad builds opts to disk and loads the result as the origin
// serves it.
func buildAndLoad(t *testing.T, timeout time.Duration, opts bundler.Options) (*bundler.Result, *assets.Registry) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	res, err := bundler.Build(ctx, opts)
	if err != nil {
		t.Fatalf("%s: %v", opts.Root, err)
	}
	t.Logf("built %d widgets in %v", len(res.Manifest.Widgets), time.Since(start).Round(time.Millisecond))
	reg, err := assets.Load(os.DirFS(res.OutDir))
	if err != nil {
		t.Fatal(err)
	}
	return res, reg
}

// readBuild reads the HTML of every widget of reg from the build's folder
// dist.
func readBuild(t *testing.T, reg *assets.Registry, dist string) *build {
	t.Helper()
	bw := newBuild()
	for _, w := range reg.Manifest().Widgets {
		doc, err := os.ReadFile(filepath.Join(dist, w.HTML))
		if err != nil {
			t.Fatal(err)
		}
		bw.add(w, doc)
	}
	return bw
}

// hostMux serves the test hosts at / and each widget of bw at /w/<name>
// with its CSP.
func hostMux(t *testing.T, bw *build) *http.ServeMux {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", shared.Hosts(t).Handler())
	for name, w := range bw.widgets {
		mux.Handle("GET /w/"+name, browsertest.WidgetHandler(bw.html[name], w.CSP))
	}
	return mux
}

package bridge_test

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// matrixWidgetsDir holds the host-compatibility matrix widgets.
const matrixWidgetsDir = "testdata/matrix"

// matrixBuild is one build of the matrix widgets.
type matrixBuild = bundler.Output

// matrixOutputs are the matrix widgets built inline (self-contained HTML) and
// external (HTML loading hashed files from cdn, a second loopback origin).
type matrixOutputs struct {
	inline, external *matrixBuild
	cdn              *httptest.Server
}

// matrixBuilds builds the matrix widgets once per test binary; the CDN
// origin lives as long as the binary (closed by TestMain).
var matrixBuilds = sync.OnceValues(func() (*matrixOutputs, error) {
	var files sync.Map // path → []byte, filled once the external build is done
	cdn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files.Load(strings.TrimPrefix(r.URL.Path, "/"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		// Module scripts and stylesheets from another origin need CORS.
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(r.URL.Path)))
		_, _ = w.Write(b.([]byte))
	}))
	out := &matrixOutputs{cdn: cdn}
	var err error
	if out.inline, err = buildMatrix(""); err != nil {
		return out, err
	}
	if out.external, err = buildMatrix(cdn.URL); err != nil {
		return out, err
	}
	for p, b := range out.external.Files {
		files.Store(p, b)
	}
	return out, nil
})

// closeMatrix stops the CDN origin if the matrix builds ran.
func closeMatrix() {
	if out, _ := matrixBuilds(); out != nil && out.cdn != nil {
		out.cdn.Close()
	}
}

// buildMatrix assembles testdata/matrix in a temporary project whose
// node_modules is the hosts' (ext-apps App, React); publicURL set makes an
// external build.
func buildMatrix(publicURL string) (*bundler.Output, error) {
	hosts, err := browsertest.HostsDir()
	if err != nil {
		return nil, err
	}
	nm, err := browsertest.CheckNodeModules(hosts, "@modelcontextprotocol/ext-apps", "react", "react-dom")
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "widgetd-matrix-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	widgets := filepath.Join(tmp, "widgets")
	if err := os.CopyFS(widgets, os.DirFS(matrixWidgetsDir)); err != nil {
		return nil, fmt.Errorf("copy matrix widgets: %w", err)
	}
	if err := os.Symlink(nm, filepath.Join(tmp, "node_modules")); err != nil {
		return nil, err
	}
	b, err := bundler.New(bundler.Options{Root: tmp, WidgetsDir: widgets, OutDir: filepath.Join(tmp, "dist"), NoCompress: true, PublicURL: publicURL})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := b.Assemble(ctx)
	if err != nil {
		return nil, fmt.Errorf("build matrix widgets (publicURL %q): %w", publicURL, err)
	}
	return out, nil
}

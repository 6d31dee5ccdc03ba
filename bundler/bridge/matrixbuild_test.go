package bridge_test

import (
	"mime"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"

	"github.com/widgetd/widgetd/bundler"
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

// buildMatrix builds testdata/matrix; publicURL set makes an external build.
func buildMatrix(publicURL string) (*bundler.Output, error) {
	return buildProject(matrixWidgetsDir, publicURL)
}

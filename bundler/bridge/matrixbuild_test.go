package bridge_test

import (
	"fmt"
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
	return buildProject(matrixWidgetsDir, publicURL, matrixPages())
}

// matrixPageWidgets are the matrix widgets with an HTML entry that show what
// they read in the same five elements; buildMatrix writes their index.html
// from matrixPage.
var matrixPageWidgets = []string{"app", "openai", "raw", "vendored", "widgetd"}

// matrixPage is the HTML entry of matrixPageWidgets: a <pre> each for the
// tool input, the tool output, the theme, the first render and the state.
// %s is the widget's name, its <title> (the bridge's appInfo.name).
const matrixPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>%s</title>
  </head>
  <body>
    <main><pre id="input">waiting</pre><pre id="output">waiting</pre><pre id="theme"></pre><pre id="first"></pre><pre id="state"></pre></main>
    <script type="module" src="./main.ts"></script>
  </body>
</html>
`

// matrixPages returns the index.html of each of matrixPageWidgets.
func matrixPages() map[string]string {
	pages := map[string]string{}
	for _, name := range matrixPageWidgets {
		pages[name+"/index.html"] = fmt.Sprintf(matrixPage, name)
	}
	return pages
}

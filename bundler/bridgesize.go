package bundler

import (
	"fmt"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/precompress"
)

// BridgeSize is the weight the injected client bridge adds to every widget,
// minified as a widget build minifies it.
type BridgeSize struct {
	Raw    int `json:"raw"`
	Gzip   int `json:"gzip"`
	Brotli int `json:"brotli"`
}

// measureBridge compiles the core bridge (the "widgetd" module) on its own,
// with the build's targets and minification, and returns its sizes. The
// bridge is embedded and the options fixed, so a Builder measures it once.
// b.mu must be held (Build measures it beside the build).
func (b *Builder) measureBridge() (BridgeSize, error) {
	if b.bridgeSize != nil {
		return *b.bridgeSize, nil
	}
	s, err := b.measureBridgeLevel(bridgeFull)
	if err == nil {
		b.bridgeSize = &s
	}
	return s, err
}

// measureBridgeLevel compiles and measures the bridge a widget carries at
// level: the full bridge, the App adapter over window.openai (app), or the
// handshake core with it (core).
func (b *Builder) measureBridgeLevel(level bridgeLevel) (BridgeSize, error) {
	opts := b.esbuildOptions()
	code := `import "widgetd";`
	switch level {
	case bridgeApp:
		opts = b.esbuildOptionsFor(map[string]bridgeLevel{})
		code = `import "widgetd/app-adapter";`
	case bridgeCore:
		code = entryBridgeImport(bridgeCore)
	}
	opts.EntryPointsAdvanced = nil
	opts.Stdin = &api.StdinOptions{Contents: code, ResolveDir: b.widgetsDir, Loader: api.LoaderJS, Sourcefile: "bridge-size.js"}
	opts.Metafile = false
	opts.Sourcemap = api.SourceMapNone
	r := api.Build(opts)
	if len(r.Errors) > 0 {
		return BridgeSize{}, fmt.Errorf("compile bridge: %s", r.Errors[0].Text)
	}
	var js []byte
	for _, f := range r.OutputFiles {
		js = append(js, f.Contents...)
	}
	s := BridgeSize{Raw: len(js)}
	sum := sha256Hex(js)
	for _, enc := range precompress.Encodings() {
		out, err := b.cache.Encode(sum, enc, js)
		if err != nil {
			return s, err
		}
		if enc == "br" {
			s.Brotli = len(out)
		} else {
			s.Gzip = len(out)
		}
	}
	return s, nil
}

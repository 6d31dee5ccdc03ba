package bundler

import "time"

// Timings splits a build's wall time by stage, so a slow build shows where
// its time went (`widgetd build --json`, bench/). Stages run one after the
// other; the bridge size measurement runs beside them, and BridgeWait counts
// only the time the build waited for it at the end. Their sum is at most the
// build's Duration.
type Timings struct {
	// Discover reads and validates every widget.json and HTML entry.
	Discover time.Duration `json:"discoverNs"`
	// Esbuild is esbuild's bundling, minification and printing of every
	// widget's JS and CSS (one context for all widgets), and reading its
	// metafile.
	Esbuild time.Duration `json:"esbuildNs"`
	// Render wraps each bundle in its HTML shell and builds its metadata.
	Render time.Duration `json:"renderNs"`
	// Minify is the HTML minifier over every document.
	Minify time.Duration `json:"minifyNs"`
	// Hash is SHA-256 of every file and widget (content hashes and URIs).
	Hash time.Duration `json:"hashNs"`
	// Compress is brotli + gzip of the files served over HTTP (or taking
	// them from the compression cache).
	Compress time.Duration `json:"compressNs"`
	// Write is writing dist/ beside the old one and swapping it in.
	Write time.Duration `json:"writeNs"`
	// Record is the up-to-date record and the compression cache's trim.
	Record time.Duration `json:"recordNs"`
	// BridgeWait is how long the build waited, at its end, for the bridge
	// size measurement that runs beside it.
	BridgeWait time.Duration `json:"bridgeWaitNs"`
}

// stopwatch adds the time since its start to a stage.
type stopwatch time.Time

func startWatch() stopwatch { return stopwatch(time.Now()) }

// add adds the elapsed time to *d and restarts the watch.
func (s *stopwatch) add(d *time.Duration) {
	now := time.Now()
	*d += now.Sub(time.Time(*s))
	*s = stopwatch(now)
}

package bundler

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Reusing assembled widgets. After a rebuild of one widget of many, the
// others' bundles are the same files as before, and so are their HTML
// documents, hashes and metadata: a Builder keeps each widget's assembled
// result under a key of everything it is made from, and the SHA-256 of every
// content-named file, so a rebuild renders, minifies and hashes only what
// changed.

// assembledWidget is one widget's cached assembly.
type assembledWidget struct {
	key  string
	mw   *builtWidget
	used []string
}

// widgetKey is everything assembleWidget reads for w besides the Builder's
// fixed options: its config, entry and HTML shell, and the names of its
// bundle files (esbuild names them by content hash, so a name stands for its
// bytes; asset names too, and the JS and CSS bytes decide which assets are
// used).
func (b *Builder) widgetKey(w *widget, bundle *bundleResult) string {
	cfg, _ := json.Marshal(w.Config)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\x00%s\x00%s\x00%s\x00%v\x00%v\x00%q\x00", cfg, b.entryKey(w), bundle.js[w.Config.Name], bundle.css[w.Config.Name], w.Inline, w.HTMLEntry, w.Profiles)
	if w.html != nil {
		sb.Write(w.html.before)
		sb.WriteByte(0)
		sb.Write(w.html.after)
	}
	return sb.String()
}

// cachedWidget returns the cached assembly of w for key, if any.
func (b *Builder) cachedWidget(name, key string) (*builtWidget, []string, bool) {
	c, ok := b.widgetCache[name]
	if !ok || c.key != key {
		return nil, nil, false
	}
	return c.mw, c.used, true
}

func (b *Builder) cacheWidget(name, key string, mw *builtWidget, used []string) {
	if b.widgetCache == nil {
		b.widgetCache = map[string]*assembledWidget{}
	}
	b.widgetCache[name] = &assembledWidget{key: key, mw: mw, used: used}
}

// pruneWidgetCache drops widgets that are gone.
func (b *Builder) pruneWidgetCache() {
	names := map[string]bool{}
	for _, w := range b.widgets {
		names[w.Config.Name] = true
	}
	for name := range b.widgetCache {
		if !names[name] {
			delete(b.widgetCache, name)
		}
	}
}

// fileSum returns the SHA-256 of a dist/ file whose name is content-derived
// (widget documents carry the widget hash, bundle files esbuild's), computing
// it once per Builder; next keeps this build's sums, replacing the cache at
// the end of assemble.
func (b *Builder) fileSum(p string, data []byte, next map[string]string) string {
	if s, ok := b.sums[p]; ok && len(data) > 0 {
		next[p] = s
		return s
	}
	s := sha256Hex(data)
	next[p] = s
	return s
}

// inputSum is a file's SHA-256 with the stamp it was computed at.
type inputSum struct {
	stamp fileStamp
	sum   string
}

// sumInput returns the SHA-256 of an input file for the build record. A
// long-lived Builder keeps sums by stamp (size, modification time) and
// reuses one when the stamp is unchanged and older than stampGap, so a
// rebuild does not read and hash every package file again.
func (b *Builder) sumInput(file string, now time.Time) (string, error) {
	st := stampOf(file)
	if c, ok := b.inputSums[file]; ok && c.stamp == st && st.mtime < now.Add(-b.stampGap).UnixNano() {
		return c.sum, nil
	}
	data, err := readBounded(file)
	if err != nil {
		return "", err
	}
	sum := sha256Hex(data)
	if b.inputSums == nil {
		b.inputSums = map[string]inputSum{}
	}
	if st != absentStamp {
		b.inputSums[file] = inputSum{stamp: st, sum: sum}
	}
	return sum, nil
}

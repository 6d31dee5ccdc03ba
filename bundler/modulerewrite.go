package bundler

import (
	"sync"

	"github.com/widgetd/widgetd/bundler/internal/jstransform"
)

// moduleRewrites remembers, per module file, what the rewrites that depend
// on a module's text alone made of it (pure branded classes, pure
// initializers), so that loading the same text again costs a comparison
// instead of two parses: a build whose widgets get a lighter bridge
// bundles them twice, and `widgetd dev` rebuilds with the same packages.
// It holds one entry per module file a build has loaded, the newest text,
// so it stays the size of the project's module graph.
type moduleRewrites struct {
	mu     sync.Mutex
	byFile map[string]moduleRewrite
}

// moduleRewrite is one module's text before and after the rewrites.
type moduleRewrite struct {
	in, out string
	changed bool
}

// rewrite returns src of file with the text-only rewrites applied, and
// whether they changed it: from the memo when src is the text it saw last
// for file.
func (r *moduleRewrites) rewrite(file, src string) (string, bool) {
	r.mu.Lock()
	prev, ok := r.byFile[file]
	r.mu.Unlock()
	if ok && prev.in == src {
		return prev.out, prev.changed
	}
	out, changed := textRewrites(file, src)
	r.mu.Lock()
	if r.byFile == nil {
		r.byFile = map[string]moduleRewrite{}
	}
	r.byFile[file] = moduleRewrite{in: src, out: out, changed: changed}
	r.mu.Unlock()
	return out, changed
}

// textRewrites applies the rewrites that need nothing but the module's
// text: branded classes (every script module) and pure initializers
// (packages only; the project's own code is left as written).
func textRewrites(file, src string) (string, bool) {
	loader := jstransform.LoaderFor(file)
	changed := false
	if out, ok := jstransform.PureClasses(src, loader); ok {
		src, changed = out, true
	}
	if inPackage(file) {
		if out, ok := jstransform.PureInitializers(src, loader); ok {
			src, changed = out, true
		}
	}
	return src, changed
}

package bundler

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/diag"
)

// Rebuilding one widget of many. esbuild's incremental Rebuild caches
// parsing, but links and prints every entry point again: with 200 widgets a
// one-line edit re-prints 200 bundles. A Builder therefore remembers, after
// each bundle, which files every widget's output came from, and on the next
// bundle stats them: when only a few widgets' files changed, those widgets
// are rebuilt alone, each with its own esbuild context (made on first use,
// then incremental), and every other widget keeps its previous output. A
// widget's output does not depend on the other entry points (no code
// splitting), so the result is byte-identical to a full bundle;
// TestIncrementalMatchesFull checks it.

// maxSingleContexts bounds the per-widget esbuild contexts a Builder keeps
// (each holds its own parse cache); the least recently used is disposed.
const maxSingleContexts = 4

// incrementalShare is the largest fraction of widgets rebuilt one by one;
// beyond it one full rebuild is cheaper.
const incrementalShare = 4 // at most 1/4 of the widgets

// fileStamp is what decides that a file changed.
type fileStamp struct {
	size, mtime int64
}

// unknownStamp never matches a file: it marks one that may have changed while
// the bundle that read it ran.
var unknownStamp = fileStamp{-1, -1}

// absentStamp is a file that did not exist.
var absentStamp = fileStamp{-2, -2}

func stampOf(path string) fileStamp {
	st, err := os.Stat(path)
	if err != nil {
		return absentStamp
	}
	return fileStamp{st.Size(), st.ModTime().UnixNano()}
}

// bundleState is what a Builder remembers of its last good bundle.
type bundleState struct {
	last *bundleResult
	// stamps holds every file and folder that can change a widget's output:
	// its inputs, the resolver configs (package.json, tsconfig.json,
	// jsconfig.json) of their folders and every folder above them, and those
	// folders themselves (a file added there can change how an import
	// resolves). users maps each of them to the widgets it affects.
	stamps map[string]fileStamp
	users  map[string][]string
	// entries is each widget's virtual entry (its scripts, where they
	// resolve from) at the last bundle.
	entries map[string]string
}

// singleContext is a per-widget esbuild context.
type singleContext struct {
	ctx  api.BuildContext
	used int64 // rebuild counter value at last use, for LRU
}

// entryKey is what a widget's virtual entry depends on.
func (b *Builder) entryKey(w *widget) string {
	return filepath.Dir(w.Entry) + "\x00" + b.entrySource(w)
}

// stampSafetyGap is how recent a file's modification may be for its stamp to
// be trusted. A file written moments ago may still be being written (editors
// and os.WriteFile truncate, then write) within one tick of the file-system
// clock, so it counts as changed until it is older; esbuild's own rebuild
// cache applies the same rule (3 s).
const stampSafetyGap = 3 * time.Second

// rememberBundle records res as the last good bundle, stamping every file
// that fed it. seen holds stamps taken before the bundle started (by
// dirtyWidgets), used when present: a file changed while esbuild ran then
// differs next time. Any file modified within stampSafetyGap of start is
// stamped unknown, so the widgets using it are rebuilt again next time. Like
// the dev server's watcher, a change is a new size or modification time.
func (b *Builder) rememberBundle(res *bundleResult, start time.Time, seen map[string]fileStamp) {
	st := &bundleState{last: res, stamps: map[string]fileStamp{}, users: map[string][]string{}, entries: map[string]string{}}
	for _, w := range b.widgets {
		st.entries[w.Config.Name] = b.entryKey(w)
	}
	cutoff := start.Add(-b.stampGap).UnixNano()
	use := func(p, name string) {
		u := st.users[p]
		if len(u) == 0 || u[len(u)-1] != name {
			st.users[p] = append(u, name)
		}
	}
	stamp := func(p string) {
		if _, ok := st.stamps[p]; ok {
			return
		}
		s, ok := seen[p]
		if !ok {
			s = stampOf(p)
		}
		if s.mtime >= cutoff {
			s = unknownStamp
		}
		st.stamps[p] = s
	}
	for _, w := range b.widgets {
		name := w.Config.Name
		dirs := map[string]bool{}
		for _, in := range res.widgetInputs(name) {
			files, known := b.readFiles(in)
			if !known {
				// A nested build this Builder did not see: the
				// widget is rebuilt every time until it is seen.
				st.stamps[in] = unknownStamp
				use(in, name)
			}
			for _, file := range files {
				stamp(file)
				use(file, name)
				dirs[filepath.Dir(file)] = true
			}
		}
		dirs[filepath.Dir(w.Entry)] = true
		walked := map[string]bool{}
		for dir := range dirs {
			for d := dir; !walked[d]; d = filepath.Dir(d) {
				walked[d] = true
				// Folders inside the project count (a file added there can
				// change a resolution); folders above it change for
				// unrelated reasons (a shared /tmp), so only their resolver
				// configs count.
				if within(b.root, d) {
					stamp(d)
					use(d, name)
				}
				for _, cfg := range resolverConfigs {
					p := filepath.Join(d, cfg)
					stamp(p)
					use(p, name)
				}
				if filepath.Dir(d) == d {
					break
				}
			}
		}
	}
	b.state = st
}

// dirtyWidgets returns the widgets whose output may differ from the last
// bundle, and false when the last bundle cannot be reused at all; cur holds
// the stamps it took.
func (b *Builder) dirtyWidgets() (dirtyList []*widget, cur map[string]fileStamp, ok bool) {
	st := b.state
	if st == nil {
		return nil, nil, false
	}
	cur = make(map[string]fileStamp, len(st.stamps))
	dirty := map[string]bool{}
	for p, old := range st.stamps {
		now := stampOf(p)
		cur[p] = now
		if old == unknownStamp || now != old {
			for _, name := range st.users[p] {
				dirty[name] = true
			}
		}
	}
	for _, w := range b.widgets {
		prev, ok := st.entries[w.Config.Name]
		if !ok {
			return nil, nil, false
		}
		if dirty[w.Config.Name] || prev != b.entryKey(w) {
			dirtyList = append(dirtyList, w)
		}
	}
	return dirtyList, cur, true
}

// bundleIncremental rebuilds only the widgets whose files changed since the
// last bundle. ok is false when a full bundle is needed instead.
func (b *Builder) bundleIncremental(start time.Time) (res *bundleResult, diags []diag.Diagnostic, err error, ok bool) {
	dirty, cur, ok := b.dirtyWidgets()
	if !ok || len(dirty)*incrementalShare > len(b.widgets) {
		b.seen = cur
		return nil, nil, nil, false
	}
	last := b.state.last
	if len(dirty) == 0 {
		return last, nil, nil, true
	}
	res, parts, err := last.cloneForSwap()
	if err != nil {
		return nil, nil, nil, false
	}
	for _, w := range dirty {
		one, d, err := b.bundleOne(w)
		diags = append(diags, d...)
		if err != nil {
			return nil, diags, err, true
		}
		if err := res.swapIn(parts, last, w.Config.Name, one); err != nil {
			return nil, diags, err, true
		}
	}
	if err := res.seal(parts); err != nil {
		return nil, diags, err, true
	}
	b.rememberBundle(res, start, cur)
	return res, diags, nil, true
}

// bundleOne rebuilds one widget with its own esbuild context.
func (b *Builder) bundleOne(w *widget) (*bundleResult, []diag.Diagnostic, error) {
	name := w.Config.Name
	b.rebuilds++
	sc := b.single[name]
	if sc == nil {
		opts := b.esbuildOptions()
		opts.EntryPointsAdvanced = []api.EntryPoint{{InputPath: entryNamespace + ":" + name, OutputPath: name}}
		ctx, cerr := api.Context(opts)
		if cerr != nil {
			var diags []diag.Diagnostic
			for _, m := range cerr.Errors {
				diags = append(diags, b.messageDiag(m, false))
			}
			return nil, nil, &diag.Error{Diagnostics: diags}
		}
		if len(b.single) >= maxSingleContexts {
			b.disposeOldestSingle()
		}
		if b.single == nil {
			b.single = map[string]*singleContext{}
		}
		sc = &singleContext{ctx: ctx}
		b.single[name] = sc
	}
	sc.used = b.rebuilds
	return b.collectFor(sc.ctx.Rebuild(), []*widget{w})
}

func (b *Builder) disposeOldestSingle() {
	var oldest string
	for name, sc := range b.single {
		if oldest == "" || sc.used < b.single[oldest].used {
			oldest = name
		}
	}
	if oldest != "" {
		b.single[oldest].ctx.Dispose()
		delete(b.single, oldest)
	}
}

// disposeSingles releases every per-widget context (the widget set changed,
// or the Builder closes).
func (b *Builder) disposeSingles() {
	for name, sc := range b.single {
		sc.ctx.Dispose()
		delete(b.single, name)
	}
}

// widgetOutputs returns the metafile keys of a widget's JS and CSS outputs.
func (r *bundleResult) widgetOutputs(name string) []string {
	var keys []string
	if p := r.js[name]; p != "" {
		keys = append(keys, outBase+"/"+p, outBase+"/"+p+".map")
	}
	if p := r.css[name]; p != "" {
		keys = append(keys, outBase+"/"+p)
	}
	return keys
}

// widgetInputs returns the metafile input keys a widget's output depends
// on: the inputs its JS and CSS outputs list, and every module its entry
// point reaches by import. An output lists only the modules that put bytes
// in it, so an empty or wholly tree-shaken module is missing there, yet an
// edit to it changes the output: an editor's save truncates, then writes,
// and a rebuild between the two must not leave the widget stuck on the
// empty file.
func (r *bundleResult) widgetInputs(name string) []string {
	seen := map[string]bool{}
	var keys []string
	add := func(key string) {
		if !seen[key] {
			seen[key] = true
			keys = append(keys, key)
		}
	}
	for _, out := range r.widgetOutputs(name) {
		for in := range r.meta.Outputs[out].Inputs {
			add(in)
		}
	}
	entry := entryNamespace + ":" + name
	if _, ok := r.meta.Inputs[entry]; ok {
		add(entry)
	}
	for i := 0; i < len(keys); i++ {
		for _, imp := range r.meta.Inputs[keys[i]].Imports {
			if _, ok := r.meta.Inputs[imp.Path]; ok && !imp.External {
				add(imp.Path)
			}
		}
	}
	return keys
}

// rawMetafile is esbuild's metafile with each input and output kept as
// written, so merging two keeps every field.
type rawMetafile struct {
	Inputs  map[string]json.RawMessage `json:"inputs"`
	Outputs map[string]json.RawMessage `json:"outputs"`
}

// rawParts returns the metafile split by input and output (parsed once).
func (r *bundleResult) rawParts() (*rawMetafile, error) {
	if r.raw != nil {
		return r.raw, nil
	}
	var m rawMetafile
	if err := json.Unmarshal([]byte(metafileOrEmpty(r.rawMeta)), &m); err != nil {
		return nil, fmt.Errorf("read esbuild metafile: %w", err)
	}
	r.raw = &m
	return r.raw, nil
}

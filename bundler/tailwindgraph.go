package bundler

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// moduleGraph is one widget's own source files (not its npm packages), the
// files Tailwind scans for class candidates, found once per build.
type moduleGraph struct {
	done  chan struct{}
	files []string
	err   error
}

// tailwindCandidateFiles returns the files whose class names a Tailwind
// stylesheet must generate: the module graph of the widget that holds it,
// or, for a stylesheet shared by widgets (outside every widget folder), of
// every widget. Files Tailwind's @source names are scanned in Node on top.
func (c *compilers) tailwindCandidateFiles(css string) ([]string, error) {
	widgets := c.b.widgets
	if w := c.b.widgetOf(css); w != nil {
		widgets = []*widget{w}
	}
	seen := map[string]bool{}
	var files []string
	for _, w := range widgets {
		g, err := c.graph(w)
		if err != nil {
			return nil, err
		}
		for _, f := range g.files {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	return files, nil
}

// graph runs (once per build and widget) an esbuild pass over the widget
// without its npm packages and without stylesheets, and lists the source
// files it reached, its HTML entry included. Components (.vue, .svelte) go
// through the compile cache, so the main pass reuses their output.
func (c *compilers) graph(w *widget) (*moduleGraph, error) {
	c.mu.Lock()
	g := c.graphs[w.Config.Name]
	if g == nil {
		g = &moduleGraph{done: make(chan struct{})}
		if c.graphs != nil {
			c.graphs[w.Config.Name] = g
		}
		c.mu.Unlock()
		g.files, g.err = c.scanGraph(w)
		close(g.done)
		return g, g.err
	}
	c.mu.Unlock()
	<-g.done
	return g, g.err
}

func (c *compilers) scanGraph(w *widget) ([]string, error) {
	b := c.b
	opts := b.esbuildOptions()
	opts.EntryPointsAdvanced = []api.EntryPoint{{InputPath: entryNamespace + ":" + w.Config.Name, OutputPath: w.Config.Name}}
	opts.Packages = api.PackagesExternal
	opts.MinifyWhitespace, opts.MinifyIdentifiers, opts.MinifySyntax = false, false, false
	opts.Metafile = true
	opts.Sourcemap = api.SourceMapNone
	loaders := map[string]api.Loader{".css": api.LoaderEmpty}
	for ext := range opts.Loader {
		loaders[ext] = api.LoaderEmpty
	}
	opts.Loader = loaders
	opts.Plugins = b.containedPlugins(b.plugin(nil), c.plugin(false))
	ctx, err := c.graphContext(w.Config.Name, opts)
	if err != nil {
		return nil, err
	}
	r := ctx.Rebuild()
	if len(r.Errors) > 0 {
		// The main pass reports the same problem at its place; Tailwind
		// falls back to the widget folder meanwhile.
		return []string{w.Dir}, nil
	}
	var meta metafile
	if err := json.Unmarshal([]byte(r.Metafile), &meta); err != nil {
		return nil, fmt.Errorf("module graph of widget %q: %w", w.Config.Name, err)
	}
	var files []string
	if w.HTMLEntry {
		files = append(files, w.Entry)
	}
	for key := range meta.Inputs {
		if strings.Contains(key, ":") || strings.Contains(key, "node_modules/") {
			continue // virtual modules and npm packages
		}
		files = append(files, filepath.Join(b.root, filepath.FromSlash(key)))
	}
	sort.Strings(files)
	return files, nil
}

// graphContext returns the widget's esbuild context for the module graph
// pass, kept for the life of the Builder (a dev rebuild re-reads only what
// changed); contexts made for another set of widgets are dropped.
func (c *compilers) graphContext(name string, opts api.BuildOptions) (api.BuildContext, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.graphSet != c.b.esbNames {
		c.disposeGraphsLocked()
		c.graphSet = c.b.esbNames
	}
	if ctx := c.graphCtx[name]; ctx != nil {
		return ctx, nil
	}
	ctx, cerr := api.Context(opts)
	if cerr != nil {
		return nil, fmt.Errorf("module graph of widget %q: %v", name, cerr)
	}
	if c.graphCtx == nil {
		c.graphCtx = map[string]api.BuildContext{}
	}
	c.graphCtx[name] = ctx
	return ctx, nil
}

func (c *compilers) disposeGraphsLocked() {
	for _, ctx := range c.graphCtx {
		ctx.Dispose()
	}
	c.graphCtx = nil
}

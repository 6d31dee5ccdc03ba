package bundler

// One widget's part of a build: its HTML document, CSP, _meta and content hash.

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/internal/publicurl"
)

// builtWidget is one widget's manifest entry plus its HTML bytes.
type builtWidget struct {
	assets.Widget
	htmlBytes []byte
	js, css   []byte // the bundle the HTML loads or holds
}

// assembleWidget renders a widget's HTML and metadata from the bundle and
// returns it with the dist/ paths of the bundle files it loads.
func (b *Builder) assembleWidget(w *widget, bundle *bundleResult, t *Timings) (*builtWidget, []string, error) {
	watch := startWatch()
	defer watch.add(&t.Render)
	name := w.Config.Name
	key := b.widgetKey(w, bundle)
	if mw, used, ok := b.cachedWidget(name, key); ok {
		return mw, used, nil
	}
	js := bundle.files[bundle.js[name]].Contents
	var css []byte
	cssPath := bundle.css[name]
	if cssPath != "" {
		css = bundle.files[cssPath].Contents
	}
	var used []string
	if b.publicURL != "" {
		used = bundle.widgetAssets(js, css)
	}
	pol := w.Policy
	var jsURL, cssURL string
	if !w.Inline {
		used = append(used, bundle.js[name])
		jsURL = b.publicURL + "/" + bundle.js[name]
		if cssPath != "" {
			used = append(used, cssPath)
			cssURL = b.publicURL + "/" + cssPath
		}
	}
	if b.devOrigin != "" {
		var err error
		if pol, err = pol.With(cspgen.Domains{Resource: []string{b.devOrigin}, Connect: []string{b.devOrigin}}); err != nil {
			return nil, nil, fmt.Errorf("widget %q: dev origin: %w", name, err)
		}
	}
	if len(used) > 0 {
		origin := publicurl.Origin(b.publicURL)
		var err error
		if pol, err = pol.With(cspgen.Domains{Resource: []string{origin}}); err != nil {
			return nil, nil, diagErr(w.ConfigFile, 0, 0, "cannot add public origin %q to the CSP: %v", origin, err)
		}
	}
	sort.Strings(used)
	shell := w.html
	if !w.HTMLEntry {
		shell = defaultShell(w.Config.Title, mountIDs(w.Config.Root, name, js))
	}
	doc := renderHTML(shell, js, css, jsURL, cssURL, w.Inline)
	watch.add(&t.Render)
	doc, err := minifyHTML(b.min, b.displayPath(w.Entry), doc)
	watch.add(&t.Minify)
	if err != nil {
		return nil, nil, err
	}
	meta := resourceMeta(w, pol)
	metaJSON, err := json.Marshal(meta)
	if err != nil {
		return nil, nil, fmt.Errorf("widget %q: encode metadata: %w", name, err)
	}
	header := pol.Header()
	watch.add(&t.Render)
	// The hash covers everything the host renders: the document, every file
	// it loads, and the CSP and metadata that decide how it renders.
	h := newHasher()
	h.add("html", doc)
	for _, p := range used {
		h.add(p, bundle.files[p].Contents)
	}
	h.add("csp", []byte(header))
	h.add("meta", metaJSON)
	hash := h.sum()[:hashLen]
	watch.add(&t.Hash)
	mw := &builtWidget{htmlBytes: doc, js: js, css: css, Widget: assets.Widget{
		Name: name, Title: w.Config.Title, Description: w.Config.Description,
		Hash: hash, HTML: name + "." + hash + ".html", Inline: w.Inline, CSP: header, Files: used,
	}}
	for _, p := range w.Profiles {
		mime, suffix := assets.MIMETypeMCPApp, ".html"
		if p == assets.ProfileSkybridge {
			mime, suffix = assets.MIMETypeSkybridge, ".skybridge.html"
		}
		mw.Profiles = append(mw.Profiles, assets.Resource{
			Profile:  p,
			URI:      "ui://widget/" + name + "." + hash + suffix,
			AliasURI: "ui://widget/" + name + suffix,
			MIMEType: mime,
			ListMeta: meta,
			ReadMeta: meta,
		})
	}
	b.cacheWidget(name, key, mw, used)
	return mw, used, nil
}

// buildID hashes the widget hashes of a build.
func buildID(ws []assets.Widget) string {
	h := newHasher()
	for _, w := range ws {
		h.add(w.Name, []byte(w.Hash))
	}
	return h.sum()[:hashLen]
}

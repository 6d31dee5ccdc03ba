package bundler

// One widget's part of a build: its HTML document, CSP, _meta and content hash.

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/diag"
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
	files := b.widgetFiles(w, bundle)
	pol, err := b.widgetPolicy(w, len(files.used) > 0)
	if err != nil {
		return nil, nil, err
	}
	shell := w.html
	if !w.HTMLEntry {
		shell = defaultShell(w.Config.Title, mountIDs(w.Config.Root, name, files.js))
	}
	doc := renderHTML(shell, files.js, files.css, files.jsURL, files.cssURL, w.Inline)
	watch.add(&t.Render)
	doc, err = minifyHTML(b.min, b.displayPath(w.Entry), doc)
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
	hash := widgetHash(doc, files.used, bundle, header, metaJSON)
	watch.add(&t.Hash)
	mw := &builtWidget{htmlBytes: doc, js: files.js, css: files.css, Widget: assets.Widget{
		Name: name, Title: w.Config.Title, Description: w.Config.Description,
		Hash: hash, HTML: name + "." + hash + ".html", Inline: w.Inline, CSP: header, Files: files.used,
		Profiles: profileResources(name, hash, w.Profiles, meta),
		Bridge:   string(bundle.bridges[name].level), BridgeReason: bundle.bridges[name].reason,
	}}
	b.cacheWidget(name, key, mw, files.used)
	return mw, files.used, nil
}

// widgetFiles is what a widget's document holds or loads from the bundle.
type widgetFiles struct {
	js, css       []byte
	jsURL, cssURL string   // set when the document loads them (external)
	used          []string // dist/ paths the document loads, sorted
}

// widgetFiles picks a widget's JS and CSS from the bundle and, for an
// external build, the files its document loads and their URLs.
func (b *Builder) widgetFiles(w *widget, bundle *bundleResult) widgetFiles {
	name := w.Config.Name
	f := widgetFiles{js: bundle.files[bundle.js[name]].Contents}
	cssPath := bundle.css[name]
	if cssPath != "" {
		f.css = bundle.files[cssPath].Contents
	}
	if b.publicURL != "" {
		f.used = bundle.widgetAssets(f.js, f.css)
	}
	if !w.Inline {
		f.used = append(f.used, bundle.js[name])
		f.jsURL = b.publicURL + "/" + bundle.js[name]
		if cssPath != "" {
			f.used = append(f.used, cssPath)
			f.cssURL = b.publicURL + "/" + cssPath
		}
	}
	sort.Strings(f.used)
	return f
}

// widgetPolicy is the widget's declared CSP plus the dev server's origin
// (widgetd dev) and, when the document loads files from dist/, the public
// URL's origin.
func (b *Builder) widgetPolicy(w *widget, loadsFiles bool) (*cspgen.Policy, error) {
	pol := w.Policy
	if b.devOrigin != "" {
		var err error
		if pol, err = pol.With(cspgen.Domains{Resource: []string{b.devOrigin}, Connect: []string{b.devOrigin}}); err != nil {
			return nil, fmt.Errorf("widget %q: dev origin: %w", w.Config.Name, err)
		}
	}
	if loadsFiles {
		origin := publicurl.Origin(b.publicURL)
		var err error
		if pol, err = pol.With(cspgen.Domains{Resource: []string{origin}}); err != nil {
			return nil, diag.Errorf(w.ConfigFile, 0, 0, "cannot add public origin %q to the CSP: %v", origin, err)
		}
	}
	return pol, nil
}

// widgetHash hashes everything the host renders: the document, every file
// it loads, and the CSP and metadata that decide how it renders.
func widgetHash(doc []byte, used []string, bundle *bundleResult, header string, metaJSON []byte) string {
	h := newHasher()
	h.add("html", doc)
	for _, p := range used {
		h.add(p, bundle.files[p].Contents)
	}
	h.add("csp", []byte(header))
	h.add("meta", metaJSON)
	return h.sum()[:hashLen]
}

// profileResources is the widget's resource under each profile it is
// offered as, all with the same _meta.
func profileResources(name, hash string, profiles []string, meta assets.ResourceMeta) []assets.Resource {
	var out []assets.Resource
	for _, p := range profiles {
		mime, suffix := assets.MIMETypeMCPApp, ".html"
		if p == assets.ProfileSkybridge {
			mime, suffix = assets.MIMETypeSkybridge, ".skybridge.html"
		}
		out = append(out, assets.Resource{
			Profile:  p,
			URI:      "ui://widget/" + name + "." + hash + suffix,
			AliasURI: "ui://widget/" + name + suffix,
			MIMEType: mime,
			ListMeta: meta,
			ReadMeta: meta,
		})
	}
	return out
}

// buildID hashes the widget hashes of a build.
func buildID(ws []assets.Widget) string {
	h := newHasher()
	for _, w := range ws {
		h.add(w.Name, []byte(w.Hash))
	}
	return h.sum()[:hashLen]
}

// Package assetstest writes small but realistic widgetd dist/ directories for
// tests of code that loads them (assets, the SDK adapters, example servers):
// a manifest with two widgets under both profiles, a retained previous build,
// an external widget with hashed JS, CSS and an image, and br/gzip sidecars
// made with the same compressors the bundler uses. It exists so such tests do
// not depend on the bundler; tests over a real build complement it.
package assetstest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/widgetd/widgetd/assets"
)

// Options tune the generated dist.
type Options struct {
	// PublicURL is the manifest's publicUrl, the base the external widget's
	// HTML loads its files from. Default "https://cdn.example.com/widgets".
	PublicURL string
	// EveryMetaField makes each widget's resource _meta carry every field
	// widgetd writes: all CSP lists in both shapes (base_uri_domains and
	// ui.linkTrustedDomains included), every permission and the drafts
	// csp.wasmUnsafeEval and permissions.tools, so adapter tests see each
	// reach the wire.
	EveryMetaField bool
}

// Dist describes a written dist/ so tests can assert against it.
type Dist struct {
	// Dir is the dist/ directory.
	Dir string
	// Manifest is what manifest.json contains.
	Manifest *assets.Manifest
	// OldURIs are the retained previous build's URIs (not current any more).
	OldURIs []string
	// OldHTML is the dist-relative path of the previous build's counter HTML.
	OldHTML string
	// Asset is the dist-relative path of a hashed JS file with br and gzip
	// sidecars, the typical CDN hit.
	Asset string
	// Image is the dist-relative path of a hashed PNG without sidecars.
	Image string
}

// New writes a dist into t.TempDir() and returns its description; it fails
// the test on any error.
func New(t testing.TB, o Options) *Dist {
	t.Helper()
	d, err := Write(t.TempDir(), o)
	if err != nil {
		t.Fatalf("assetstest: %v", err)
	}
	return d
}

// Load writes a dist like New and loads it with assets.Load and opts, for
// tests that only need a Registry over it; it fails the test on any error.
func Load(t testing.TB, o Options, opts ...assets.Option) (*assets.Registry, *Dist) {
	t.Helper()
	d := New(t, o)
	return load(t, d.Dir, opts), d
}

// LoadDir loads the dist already in dir with assets.Load, its log
// discarded unless opts set a logger, for tests that build or copy a dist
// themselves; it fails the test on any error.
func LoadDir(t testing.TB, dir string, opts ...assets.Option) *assets.Registry {
	t.Helper()
	quiet := assets.WithLogger(slog.New(slog.NewJSONHandler(io.Discard, nil)))
	return load(t, dir, append([]assets.Option{quiet}, opts...))
}

func load(t testing.TB, dir string, opts []assets.Option) *assets.Registry {
	t.Helper()
	reg, err := assets.Load(os.DirFS(dir), opts...)
	if err != nil {
		t.Fatalf("assetstest: load: %v", err)
	}
	return reg
}

type writer struct {
	dir   string
	files []assets.File
}

// Write writes the dist into dir (created if needed).
func Write(dir string, o Options) (*Dist, error) {
	if o.PublicURL == "" {
		o.PublicURL = "https://cdn.example.com/widgets"
	}
	pub := strings.TrimRight(o.PublicURL, "/")
	u, err := url.Parse(pub)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("assetstest: public URL %q is not absolute", o.PublicURL)
	}
	origin := u.Scheme + "://" + u.Host
	w := &writer{dir: dir}
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		return nil, fmt.Errorf("assetstest: %w", err)
	}
	c := newContents(pub)
	if err := w.writeContents(c); err != nil {
		return nil, err
	}
	chart := widgetEntry("chart", "Chart", "A bar chart of the tool result.", c.chartHash, false,
		[]string{c.cssPath, c.jsPath, c.pngPath}, []string{origin}, nil)
	counter := widgetEntry("counter", "Counter", "A counter the user can click.", c.counterHash, true,
		nil, nil, []string{"https://api.example.com"})

	oldURIs := []string{"ui://widget/counter." + c.counterOldHash + ".html", "ui://widget/counter." + c.counterOldHash + ".skybridge.html"}
	cur := assets.Build{ID: short(c.chartHash+c.counterHash, false), Widgets: map[string]assets.BuildWidget{
		"chart":   {Hash: c.chartHash, HTML: chart.HTML, URIs: profileURIs(chart)},
		"counter": {Hash: c.counterHash, HTML: counter.HTML, URIs: profileURIs(counter)},
	}}
	prev := assets.Build{ID: short(c.chartHash+c.counterOldHash, false), Widgets: map[string]assets.BuildWidget{
		"chart":   {Hash: c.chartHash, HTML: chart.HTML, URIs: profileURIs(chart)},
		"counter": {Hash: c.counterOldHash, HTML: "counter." + c.counterOldHash + ".html", URIs: oldURIs},
	}}
	for i := range w.files {
		f := &w.files[i]
		f.Builds = []string{cur.ID, prev.ID}
		if f.Path == "counter."+c.counterHash+".html" {
			f.Builds = []string{cur.ID}
		}
		if f.Path == "counter."+c.counterOldHash+".html" {
			f.Builds = []string{prev.ID}
		}
	}
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].Path < w.files[j].Path })
	man := &assets.Manifest{
		Version:   assets.ManifestVersion,
		Generator: "assetstest",
		BuildID:   cur.ID,
		PublicURL: pub,
		Widgets:   []assets.Widget{chart, counter},
		Builds:    []assets.Build{cur, prev},
		Files:     w.files,
	}
	if o.EveryMetaField {
		for i := range man.Widgets {
			for j := range man.Widgets[i].Profiles {
				p := &man.Widgets[i].Profiles[j]
				declareEveryField(&p.ListMeta)
				declareEveryField(&p.ReadMeta)
			}
		}
	}
	if err := w.manifest(man); err != nil {
		return nil, err
	}
	return &Dist{Dir: dir, Manifest: man, OldURIs: oldURIs, OldHTML: "counter." + c.counterOldHash + ".html", Asset: c.jsPath, Image: c.pngPath}, nil
}

// contents are the bodies, paths and hashes of the generated widgets: the
// external "chart" (hashed JS, CSS and an image) and the inline "counter" in
// its current and previous build.
type contents struct {
	js, css, png, chartHTML, counterOld, counterNew string
	jsPath, cssPath, pngPath                        string
	chartHash, counterHash, counterOldHash          string
}

func newContents(pub string) *contents {
	c := &contents{
		js:         "const e=document.getElementById(\"root\");" + strings.Repeat("e.append(Object.assign(document.createElement(\"div\"),{className:\"bar\",textContent:\"bar\"}));", 60) + "\n",
		css:        ".bar{background:#4a90d9;color:#fff;margin:2px 0;padding:2px 6px;border-radius:3px}" + strings.Repeat(".bar:nth-child(2n){background:#357abd}", 20) + "\n",
		png:        "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82",
		counterOld: `<!doctype html><html><head><meta charset="utf-8"><title>Counter</title></head><body><button id="b">0</button><script type="module">let n=0;b.onclick=()=>b.textContent=++n</script></body></html>` + "\n",
		counterNew: `<!doctype html><html><head><meta charset="utf-8"><title>Counter</title><style>button{font:inherit;padding:4px 12px}</style></head><body><button id="b">0</button><script type="module">let n=0;const b=document.getElementById("b");b.onclick=()=>{b.textContent=String(++n)}</script></body></html>` + "\n",
	}
	c.jsPath = "assets/chart-" + short(c.js, true) + ".js"
	c.cssPath = "assets/chart-" + short(c.css, true) + ".css"
	c.pngPath = "assets/logo-" + short(c.png, true) + ".png"
	c.chartHTML = `<!doctype html><html><head><meta charset="utf-8"><title>Chart</title>` +
		`<link rel="stylesheet" href="` + pub + "/" + c.cssPath + `">` +
		`<script type="module" crossorigin src="` + pub + "/" + c.jsPath + `"></script></head>` +
		`<body><img src="` + pub + "/" + c.pngPath + `" alt=""><div id="root"></div></body></html>` + "\n"
	c.chartHash = short(c.chartHTML+c.js+c.css, false)
	c.counterHash = short(c.counterNew, false)
	c.counterOldHash = short(c.counterOld, false)
	return c
}

// writeContents writes every file of c, with br and gzip sidecars where a
// build would have them.
func (w *writer) writeContents(c *contents) error {
	for _, f := range []struct {
		path, body, ctype   string
		immutable, compress bool
	}{
		{c.jsPath, c.js, "text/javascript; charset=utf-8", true, true},
		{c.cssPath, c.css, "text/css; charset=utf-8", true, true},
		{c.pngPath, c.png, "image/png", true, false},
		{"chart." + c.chartHash + ".html", c.chartHTML, "text/html; charset=utf-8", true, true},
		{"counter." + c.counterHash + ".html", c.counterNew, "text/html; charset=utf-8", true, true},
		{"counter." + c.counterOldHash + ".html", c.counterOld, "text/html; charset=utf-8", true, true},
	} {
		if err := w.file(f.path, []byte(f.body), f.ctype, f.immutable, f.compress); err != nil {
			return err
		}
	}
	return nil
}

// manifest writes man as dist/manifest.json, indented as the bundler does.
func (w *writer) manifest(man *assets.Manifest) error {
	raw, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return fmt.Errorf("assetstest: %w", err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, assets.ManifestFile), append(raw, '\n'), 0o644); err != nil {
		return fmt.Errorf("assetstest: %w", err)
	}
	return nil
}

// widgetMeta is the _meta of a generated widget, both shapes, with a
// declared domain and the clipboard-write permission.
func widgetMeta(name, desc string, resources []string, connect []string) assets.ResourceMeta {
	border := true
	domain := "https://" + name + ".widgets.example.com"
	res := append([]string{}, resources...)
	con := append([]string{}, connect...)
	return assets.ResourceMeta{
		UI: &assets.UIMeta{
			CSP:           &assets.UICSP{ConnectDomains: con, ResourceDomains: res},
			Domain:        domain,
			PrefersBorder: &border,
			Permissions:   assets.Permissions{ClipboardWrite: true},
		},
		WidgetCSP:           &assets.WidgetCSP{ConnectDomains: con, ResourceDomains: res},
		WidgetDomain:        domain,
		WidgetPrefersBorder: &border,
		WidgetDescription:   desc,
	}
}

// declareEveryField adds to m every _meta field the generated widgets do
// not declare by default (see Options.EveryMetaField).
func declareEveryField(m *assets.ResourceMeta) {
	base, frame, redirect := []string{"https://base.example.com"}, []string{"https://embed.example.com"}, []string{"https://checkout.example.com"}
	m.UI.CSP.BaseURIDomains, m.UI.CSP.FrameDomains, m.UI.CSP.WasmUnsafeEval = base, frame, true
	m.UI.LinkTrustedDomains = redirect
	m.UI.Permissions = assets.Permissions{Camera: true, ClipboardWrite: true, Geolocation: true, Microphone: true, Tools: true}
	m.WidgetCSP.BaseURIDomains, m.WidgetCSP.FrameDomains, m.WidgetCSP.RedirectDomains = base, frame, redirect
}

// widgetEntry is the manifest entry of a generated widget under both
// profiles.
func widgetEntry(name, title, desc, hash string, inline bool, files, resources, connect []string) assets.Widget {
	wd := assets.Widget{Name: name, Title: title, Description: desc, Hash: hash, HTML: name + "." + hash + ".html", Inline: inline,
		CSP: "default-src 'none'; script-src 'self' 'unsafe-inline' " + strings.Join(resources, " "), Files: files}
	for _, p := range []struct{ profile, mime, suffix string }{
		{assets.ProfileMCPApp, assets.MIMETypeMCPApp, ".html"},
		{assets.ProfileSkybridge, assets.MIMETypeSkybridge, ".skybridge.html"},
	} {
		wd.Profiles = append(wd.Profiles, assets.Resource{
			Profile: p.profile, MIMEType: p.mime,
			URI:      "ui://widget/" + name + "." + hash + p.suffix,
			AliasURI: "ui://widget/" + name + p.suffix,
			ListMeta: widgetMeta(name, desc, resources, connect),
			ReadMeta: widgetMeta(name, desc, resources, connect),
		})
	}
	return wd
}

// profileURIs lists the resource URIs of wd (from widgetEntry), mcp-app
// then skybridge.
func profileURIs(wd assets.Widget) []string {
	return []string{wd.Profiles[0].URI, wd.Profiles[1].URI}
}

func (w *writer) file(p string, body []byte, ctype string, immutable, compress bool) error {
	f := assets.File{Path: p, Size: int64(len(body)), SHA256: sum(body), ContentType: ctype, Immutable: immutable}
	if err := os.WriteFile(filepath.Join(w.dir, filepath.FromSlash(p)), body, 0o644); err != nil {
		return fmt.Errorf("assetstest: %w", err)
	}
	if compress {
		var br, gz bytes.Buffer
		bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
		gw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		for _, c := range []interface {
			Write([]byte) (int, error)
			Close() error
		}{bw, gw} {
			if _, err := c.Write(body); err != nil {
				return fmt.Errorf("assetstest: compress %s: %w", p, err)
			}
			if err := c.Close(); err != nil {
				return fmt.Errorf("assetstest: compress %s: %w", p, err)
			}
		}
		for _, e := range []struct {
			name, ext string
			b         []byte
		}{{"br", ".br", br.Bytes()}, {"gzip", ".gz", gz.Bytes()}} {
			if err := os.WriteFile(filepath.Join(w.dir, filepath.FromSlash(p+e.ext)), e.b, 0o644); err != nil {
				return fmt.Errorf("assetstest: %w", err)
			}
			f.Encodings = append(f.Encodings, assets.Encoding{Name: e.name, Path: p + e.ext, Size: int64(len(e.b)), SHA256: sum(e.b)})
		}
	}
	w.files = append(w.files, f)
	return nil
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// short returns an 8-character hash of s: upper-case for asset names like
// esbuild's, lower-case hex for widget hashes.
func short(s string, upper bool) string {
	h := sum([]byte(s))[:8]
	if upper {
		return strings.ToUpper(h)
	}
	return h
}

// CheckEveryMetaField fails t unless meta, a resource _meta as an MCP client
// decoded it from the wire (where names the resource in failures), carries
// every field Options.EveryMetaField declares, with its value.
func CheckEveryMetaField(t testing.TB, where string, meta map[string]any) {
	t.Helper()
	got, err := json.Marshal(meta)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var m struct {
		UI struct {
			CSP struct {
				BaseURIDomains []string `json:"baseUriDomains"`
				FrameDomains   []string `json:"frameDomains"`
				WasmUnsafeEval bool     `json:"wasmUnsafeEval"`
			} `json:"csp"`
			LinkTrustedDomains []string                  `json:"linkTrustedDomains"`
			Permissions        map[string]map[string]any `json:"permissions"`
		} `json:"ui"`
		WidgetCSP struct {
			BaseURIDomains  []string `json:"base_uri_domains"`
			FrameDomains    []string `json:"frame_domains"`
			RedirectDomains []string `json:"redirect_domains"`
		} `json:"openai/widgetCSP"`
	}
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	perms := slices.Sorted(maps.Keys(m.UI.Permissions))
	for _, c := range []struct {
		field string
		got   any
		want  any
	}{
		{"ui.csp.baseUriDomains", m.UI.CSP.BaseURIDomains, []string{"https://base.example.com"}},
		{"ui.csp.frameDomains", m.UI.CSP.FrameDomains, []string{"https://embed.example.com"}},
		{"ui.csp.wasmUnsafeEval", m.UI.CSP.WasmUnsafeEval, true},
		{"ui.linkTrustedDomains", m.UI.LinkTrustedDomains, []string{"https://checkout.example.com"}},
		{"ui.permissions", perms, []string{"camera", "clipboardWrite", "geolocation", "microphone", "tools"}},
		{"openai/widgetCSP.base_uri_domains", m.WidgetCSP.BaseURIDomains, []string{"https://base.example.com"}},
		{"openai/widgetCSP.frame_domains", m.WidgetCSP.FrameDomains, []string{"https://embed.example.com"}},
		{"openai/widgetCSP.redirect_domains", m.WidgetCSP.RedirectDomains, []string{"https://checkout.example.com"}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %s = %v, want %v (_meta %s)", where, c.field, c.got, c.want, got)
		}
	}
}

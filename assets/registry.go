package assets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/internal/distpath"
)

// Cache-Control values the origin sends.
const (
	// CacheImmutable is sent for content-hashed files: their bytes never change
	// under a name, so every cache may keep them for a year without asking.
	CacheImmutable = "public, max-age=31536000, immutable"
	// CacheRevalidate is sent for mutable names (manifest.json, unhashed
	// aliases): caches may store them but must revalidate with the ETag.
	CacheRevalidate = "no-cache"
)

// ErrNotFound is returned (wrapped) by Registry lookups for an unknown widget
// or resource URI.
var ErrNotFound = errors.New("not found")

// Option configures Load.
type Option func(*options)

type options struct {
	logger       *slog.Logger
	basePath     string
	connectorURL string
	assetBase    string
	devURL       string // WithDev's URL
	devSet       bool   // WithDev was given (DevURLEnv is then not read)
}

// WithLogger sets the logger Load reports to (one line per loaded build);
// the default discards.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) { o.logger = l }
}

// WithBasePath sets the URL path prefix the Handler is mounted under, e.g.
// "/widgets" when the user does mux.Handle("/widgets/", reg.Handler()). The
// handler strips it itself, so no http.StripPrefix is needed. Default "/".
func WithBasePath(p string) Option {
	return func(o *options) { o.basePath = p }
}

// WithConnectorURL sets the default public URL of the MCP server as hosts
// connect to it. Claude derives the only ui.domain it accepts from it (see
// ClaudeDomain); Client.ConnectorURL overrides it per request.
func WithConnectorURL(u string) Option {
	return func(o *options) { o.connectorURL = u }
}

// WithAssetBase sets the default base URL (origin plus optional path prefix)
// the dist/ files are reachable at, replacing the manifest's PublicURL in the
// widget HTML and in the CSP resourceDomains. Client.AssetBase overrides it per
// request; see BaseURL for deriving it from a request.
func WithAssetBase(u string) Option {
	return func(o *options) { o.assetBase = strings.TrimRight(u, "/") }
}

// Registry is a loaded, verified dist/: every response body and header the
// origin sends is built once by Load, and every MCP resource is indexed by URI.
// It is immutable after Load and safe for concurrent use without locks.
type Registry struct {
	man      Manifest
	opts     options
	basePath string // always ends in "/"
	devURL   string // the widgetd dev URL in dev mode, else ""

	files   map[string]*entry   // request path (dist-relative, no leading slash) → entry
	widgets map[string]*Widget  // name → widget of the current build
	uris    map[string]resolved // any readable ui:// URI → what it reads as

	health *entry
}

// resolved is what one readable URI reads as.
type resolved struct {
	widget   *Widget   // current widget of that name, nil if it was removed
	res      *Resource // current profile resource, nil if unknown
	profile  string
	mimeType string
	html     *entry
}

// Load reads dist/manifest.json from fsys, checks its version, verifies that
// every file and precompressed variant it names exists with the recorded size
// and SHA-256, and prebuilds every response. fsys is typically os.DirFS("dist")
// or an embed.FS narrowed with fs.Sub.
func Load(fsys fs.FS, opts ...Option) (*Registry, error) {
	o := options{basePath: "/"}
	for _, opt := range opts {
		opt(&o)
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	bp, err := cleanBasePath(o.basePath)
	if err != nil {
		return nil, err
	}
	devURL, err := devConfig(&o)
	if err != nil {
		return nil, fmt.Errorf("load dist: %w", err)
	}
	raw, err := fs.ReadFile(fsys, ManifestFile)
	if err != nil {
		return nil, fmt.Errorf("load dist: %w", err)
	}
	var man Manifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&man); err != nil {
		return nil, fmt.Errorf("load dist: %s: %w", ManifestFile, err)
	}
	if man.Version != ManifestVersion {
		return nil, fmt.Errorf("load dist: %s: version %d, this widgetd reads version %d (rebuild with a matching widgetd)", ManifestFile, man.Version, ManifestVersion)
	}
	r := &Registry{
		man:      man,
		opts:     o,
		basePath: bp,
		devURL:   devURL,
		files:    make(map[string]*entry, len(man.Files)+1),
		widgets:  make(map[string]*Widget, len(man.Widgets)),
		uris:     make(map[string]resolved),
	}
	for i := range man.Files {
		f := &man.Files[i]
		e, err := loadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("load dist: %w", err)
		}
		if _, dup := r.files[f.Path]; dup {
			return nil, fmt.Errorf("load dist: file %q listed twice", f.Path)
		}
		if f.Path == ManifestFile {
			return nil, fmt.Errorf("load dist: file %q must not be listed in files", f.Path)
		}
		r.files[f.Path] = e
	}
	sum := sha256.Sum256(raw)
	r.files[ManifestFile] = newEntry(ManifestFile, "application/json; charset=utf-8", false,
		variant{body: raw, etag: quoteETag(hex.EncodeToString(sum[:]), "")}, nil)
	r.health = newEntry("healthz", "text/plain; charset=utf-8", false, variant{body: []byte("ok\n"), etag: `"ok"`}, nil)
	r.health.cache = []string{"no-store"}

	if err := r.indexWidgets(); err != nil {
		return nil, fmt.Errorf("load dist: %w", err)
	}
	o.logger.Info("dist loaded", "build", man.BuildID, "widgets", len(man.Widgets), "files", len(man.Files), "builds", len(man.Builds))
	if devURL != "" {
		o.logger.Info("dev mode: resources/read serves live widgets from widgetd dev", "url", devURL)
	}
	return r, nil
}

func cleanBasePath(p string) (string, error) {
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "?#\\\x00") || strings.Contains(p, "..") {
		return "", fmt.Errorf("base path %q: must be an absolute URL path like /widgets", p)
	}
	p = path.Clean(p)
	if p != "/" {
		p += "/"
	}
	return p, nil
}

// loadFile reads and verifies one manifest file and its encodings.
func loadFile(fsys fs.FS, f *File) (*entry, error) {
	if !distpath.Valid(f.Path) {
		return nil, fmt.Errorf("file %q: not a clean dist-relative path", f.Path)
	}
	body, err := readVerified(fsys, f.Path, f.Size, f.SHA256)
	if err != nil {
		return nil, err
	}
	if f.ContentType == "" {
		return nil, fmt.Errorf("file %q: no contentType", f.Path)
	}
	var encs []variant
	for _, enc := range f.Encodings {
		if enc.Name != "br" && enc.Name != "gzip" {
			return nil, fmt.Errorf("file %q: unsupported encoding %q (want br or gzip)", f.Path, enc.Name)
		}
		if !distpath.Valid(enc.Path) {
			return nil, fmt.Errorf("file %q: encoding %s: path %q is not clean", f.Path, enc.Name, enc.Path)
		}
		eb, err := readVerified(fsys, enc.Path, enc.Size, enc.SHA256)
		if err != nil {
			return nil, fmt.Errorf("file %q: encoding %s: %w", f.Path, enc.Name, err)
		}
		encs = append(encs, variant{body: eb, name: enc.Name, etag: quoteETag(f.SHA256, enc.Name)})
	}
	return newEntry(f.Path, f.ContentType, f.Immutable, variant{body: body, etag: quoteETag(f.SHA256, "")}, encs), nil
}

func readVerified(fsys fs.FS, name string, size int64, want string) ([]byte, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", name, err)
	}
	if int64(len(b)) != size {
		return nil, fmt.Errorf("file %q: size %d, manifest says %d (dist/ modified after build?)", name, len(b), size)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, want) {
		return nil, fmt.Errorf("file %q: sha256 %s, manifest says %s (dist/ modified after build?)", name, got, want)
	}
	return b, nil
}

// quoteETag returns the strong ETag for a file with identity SHA-256 sum under
// content coding enc ("" for identity): the first 16 hex digits, plus the
// coding so each representation has its own tag.
func quoteETag(sum, enc string) string {
	if len(sum) > 16 {
		sum = sum[:16]
	}
	switch enc {
	case "":
		return `"` + sum + `"`
	case "gzip":
		return `"` + sum + `-gz"`
	default:
		return `"` + sum + `-` + enc + `"`
	}
}

// indexWidgets indexes every readable ui:// URI: the current widgets' hashed
// and alias URIs, then the retained builds' URIs.
func (r *Registry) indexWidgets() error {
	for i := range r.man.Widgets {
		if err := r.indexWidget(i, &r.man.Widgets[i]); err != nil {
			return err
		}
	}
	// Retained builds: old hashed URIs read the old HTML with the current
	// widget's metadata for that profile (the manifest keeps no old metadata).
	for _, b := range r.man.Builds {
		names := make([]string, 0, len(b.Widgets))
		for n := range b.Widgets {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			if err := r.indexRetained(name, b.Widgets[name]); err != nil {
				return fmt.Errorf("build %q: widget %q: %w", b.ID, name, err)
			}
		}
	}
	return nil
}

// indexWidget indexes the current build's widget w (number i): its URIs per
// profile and the unhashed /<name>.html file alias.
func (r *Registry) indexWidget(i int, w *Widget) error {
	if w.Name == "" {
		return fmt.Errorf("widget #%d: no name", i)
	}
	if _, dup := r.widgets[w.Name]; dup {
		return fmt.Errorf("widget %q: listed twice", w.Name)
	}
	r.widgets[w.Name] = w
	html, ok := r.files[w.HTML]
	if !ok {
		return fmt.Errorf("widget %q: html %q is not in files", w.Name, w.HTML)
	}
	for _, f := range w.Files {
		if _, ok := r.files[f]; !ok {
			return fmt.Errorf("widget %q: loads %q, which is not in files", w.Name, f)
		}
	}
	seenProfiles := map[string]bool{}
	for j := range w.Profiles {
		p := &w.Profiles[j]
		if seenProfiles[p.Profile] {
			return fmt.Errorf("widget %q: profile %q listed twice", w.Name, p.Profile)
		}
		seenProfiles[p.Profile] = true
		if want := profileMIME(p.Profile); want == "" || p.MIMEType != want {
			return fmt.Errorf("widget %q: profile %q with MIME type %q (want %q or %q)", w.Name, p.Profile, p.MIMEType, MIMETypeMCPApp, MIMETypeSkybridge)
		}
		res := resolved{widget: w, res: p, profile: p.Profile, mimeType: p.MIMEType, html: html}
		for _, u := range []string{p.URI, p.AliasURI} {
			if err := r.addURI(u, res); err != nil {
				return fmt.Errorf("widget %q: %w", w.Name, err)
			}
		}
	}
	// The unhashed file alias /<name>.html serves the current HTML, mutable.
	alias := w.Name + ".html"
	if _, exists := r.files[alias]; !exists {
		a := *html
		a.path = alias
		a.immutable = false
		a.cache = []string{CacheRevalidate}
		r.files[alias] = &a
	}
	return nil
}

// indexRetained indexes the URIs of a retained build's widget name that no
// newer build answers.
func (r *Registry) indexRetained(name string, bw BuildWidget) error {
	html, ok := r.files[bw.HTML]
	if !ok {
		return fmt.Errorf("html %q is not in files", bw.HTML)
	}
	for _, u := range bw.URIs {
		if _, ok := r.uris[u]; ok {
			continue // the current build (or a newer retained one) already answers it
		}
		profile := profileOfURI(u)
		res := resolved{widget: r.widgets[name], profile: profile, mimeType: profileMIME(profile), html: html}
		if res.widget != nil {
			for j := range res.widget.Profiles {
				if res.widget.Profiles[j].Profile == profile {
					res.res = &res.widget.Profiles[j]
				}
			}
		}
		if err := r.addURI(u, res); err != nil {
			return err
		}
	}
	return nil
}

func (r *Registry) addURI(u string, res resolved) error {
	if !strings.HasPrefix(u, "ui://") {
		return fmt.Errorf("resource URI %q: must start with ui://", u)
	}
	if prev, dup := r.uris[u]; dup && (prev.html != res.html || prev.profile != res.profile) {
		return fmt.Errorf("resource URI %q: names two different resources", u)
	}
	r.uris[u] = res
	return nil
}

func profileMIME(profile string) string {
	switch profile {
	case ProfileMCPApp:
		return MIMETypeMCPApp
	case ProfileSkybridge:
		return MIMETypeSkybridge
	}
	return ""
}

// profileOfURI tells the profile from the URI naming convention:
// ui://widget/<name>.<hash>.skybridge.html is skybridge, anything else mcp-app.
func profileOfURI(u string) string {
	if strings.HasSuffix(u, ".skybridge.html") {
		return ProfileSkybridge
	}
	return ProfileMCPApp
}

// Manifest returns the loaded manifest. It shares memory with the Registry:
// callers must treat it as read-only.
func (r *Registry) Manifest() *Manifest { return &r.man }

// Widgets returns the names of the current build's widgets, sorted.
func (r *Registry) Widgets() []string {
	names := make([]string, 0, len(r.man.Widgets))
	for _, w := range r.man.Widgets {
		names = append(names, w.Name)
	}
	sort.Strings(names)
	return names
}

// Widget returns the current build's widget called name. The result shares
// memory with the Registry: treat it as read-only.
func (r *Registry) Widget(name string) (*Widget, error) {
	w, ok := r.widgets[name]
	if !ok {
		return nil, fmt.Errorf("widget %q: %w", name, ErrNotFound)
	}
	return w, nil
}

// URIs returns every ui:// URI the registry reads: the current hashed URIs,
// the unhashed aliases and the retained builds' URIs, sorted.
func (r *Registry) URIs() []string {
	out := make([]string, 0, len(r.uris))
	for u := range r.uris {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

// BasePath returns the URL path prefix the Handler serves under, ending in "/".
func (r *Registry) BasePath() string { return r.basePath }

// FileURL returns the path (base path included) the Handler serves the
// dist-relative file p at, or "" when p is not served.
func (r *Registry) FileURL(p string) string {
	if _, ok := r.files[p]; !ok {
		return ""
	}
	return r.basePath + p
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

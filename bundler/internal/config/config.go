// Package config reads and validates a project's configuration files:
// widgetd.json (Project, LoadProject) and each widget's widget.json
// (WidgetFile, LoadWidget), with their "styles" lists and "provider"
// entries, each problem a file:line:col diagnostic at the field. It is
// separate from bundler because it decides what a valid project is, not
// how it is built: it knows nothing of esbuild (the build passes its own
// check of "targets") and reads its files through bundler/internal/contain.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler/internal/contain"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/bundler/strictjson"
	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/publicurl"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// WidgetFile is the contents of widgets/<name>/widget.json. The JSON Schema
// in widget.schema.json describes the same fields for editors.
type WidgetFile struct {
	// Schema is the editor hint "$schema"; ignored by the build.
	Schema string `json:"$schema,omitempty"`
	// Name is the widget's name, [a-z0-9-]+; defaults to the folder name.
	Name string `json:"name,omitempty"`
	// Title is the human-readable title.
	Title string `json:"title,omitempty"`
	// Description is the resource description shown to hosts.
	Description string `json:"description,omitempty"`
	// Entry is the widget's entry file relative to its folder: an HTML
	// document (Vite style) or a script (index.tsx/ts/jsx/js). Defaults to
	// index.html when present, else the first index script found.
	Entry string `json:"entry,omitempty"`
	// CSP lists the origins the widget reaches.
	CSP cspgen.Domains `json:"csp"`
	// Permissions lists the browser permissions the widget asks the host for.
	Permissions Permissions `json:"permissions"`
	// PrefersBorder asks the host for a bordered card; default true.
	PrefersBorder *bool `json:"prefersBorder,omitempty"`
	// Domain is the widget's dedicated HTTPS origin (openai/widgetDomain,
	// ui.domain), required for ChatGPT app submission.
	Domain string `json:"domain,omitempty"`
	// Profiles lists the resource profiles to emit: "mcp-app", "skybridge".
	// Default both.
	Profiles []string `json:"profiles,omitempty"`
	// Inline makes the HTML self-contained; default true unless a public URL
	// is configured.
	Inline *bool `json:"inline,omitempty"`
	// Root is the id of the element the default shell gives the widget to
	// mount into (script entries only). Unset, the shell provides every
	// mount-like id the widget's code looks up ("root", "<name>-root", ...),
	// or both "root" and "<name>-root" when it finds none.
	Root string `json:"root,omitempty"`
	// WidgetDescription is ChatGPT's openai/widgetDescription, the summary the
	// model sees when the widget loads.
	WidgetDescription string `json:"widgetDescription,omitempty"`
	// Styles are stylesheets no module imports, relative to the widget
	// folder (e.g. ["../index.css", "styles.css"]): bundled before the
	// entry's own CSS, after widgetd.json's "styles" (stylesheets.go).
	Styles []string `json:"styles,omitempty"`
	// Provider names the components a component entry is wrapped in
	// (outermost first), each "module#Export" or "module" (its default
	// export) of an npm package or a path relative to the widget folder,
	// or {"use": …, "props": {…}}. See provider.go.
	Provider ProviderList `json:"provider,omitempty"`
	// Bridge is "auto" (the least bridge the code uses) or "full"; empty
	// takes widgetd.json's (bundler's bridgelevel.go).
	Bridge string `json:"bridge,omitempty"`
}

// Permissions is the "permissions" object of widget.json.
type Permissions struct {
	Camera         bool `json:"camera,omitempty"`
	Microphone     bool `json:"microphone,omitempty"`
	Geolocation    bool `json:"geolocation,omitempty"`
	ClipboardWrite bool `json:"clipboardWrite,omitempty"`
	// Tools is the draft WebMCP "tools" permission (ext-apps spec.types.ts
	// on main, not in the 2026-01-26 spec).
	Tools bool `json:"tools,omitempty"`
}

var (
	widgetKeys     = []string{"$schema", "name", "title", "description", "entry", "csp", "permissions", "prefersBorder", "domain", "profiles", "inline", "widgetDescription", "root", "styles", "provider", "bridge"}
	cspKeys        = []string{"connectDomains", "resourceDomains", "frameDomains", "baseUriDomains", "redirectDomains", "wasmUnsafeEval"}
	permissionKeys = []string{"camera", "microphone", "geolocation", "clipboardWrite", "tools"}
	projectKeys    = []string{"$schema", "widgetsDir", "outDir", "publicUrl", "targets", "retain", "allowOutside", "maxSourceSize", "htmlBudget", "precompressHtml", "styles", "bridge", "legalComments"}
	nameRE         = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// Project is the optional widgetd.json at the project root. Command-line
// flags override it.
type Project struct {
	Schema string `json:"$schema,omitempty"`
	// WidgetsDir is the folder holding one folder per widget; default "widgets".
	WidgetsDir string `json:"widgetsDir,omitempty"`
	// OutDir is the output folder; default "dist".
	OutDir string `json:"outDir,omitempty"`
	// PublicURL is where dist/ is served from; enables external mode.
	PublicURL string `json:"publicUrl,omitempty"`
	// Targets are esbuild targets, e.g. ["es2020", "chrome120", "safari16"].
	Targets []string `json:"targets,omitempty"`
	// Retain is how many builds' hashed files to keep (current included); default 5.
	Retain int `json:"retain,omitempty"`
	// AllowOutside names folders outside the project (relative to it, or
	// absolute) that a build may read files from on purpose, e.g.
	// ["../shared-ui"]. Everything else outside the project and the
	// node_modules it uses is an error (see bundler/internal/contain).
	AllowOutside []string `json:"allowOutside,omitempty"`
	// MaxSourceSize is the largest source file a build reads, in bytes;
	// default 50 MiB.
	MaxSourceSize int64 `json:"maxSourceSize,omitempty"`
	// HTMLBudget is the largest widget HTML document, in bytes, before the
	// build warns (fails with Options.Strict); default 1 MiB.
	HTMLBudget int64 `json:"htmlBudget,omitempty"`
	// PrecompressHTML also precompresses the widget HTML documents (see
	// Options.PrecompressHTML); default false.
	PrecompressHTML bool `json:"precompressHtml,omitempty"`
	// Styles are stylesheets every widget gets, relative to the project
	// root, bundled before each widget's own "styles" (stylesheets.go).
	Styles []string `json:"styles,omitempty"`
	// Bridge is every widget's "bridge" unless its widget.json sets one:
	// "auto" (default) or "full" (bundler's bridgelevel.go).
	Bridge string `json:"bridge,omitempty"`
	// LegalComments is "file" (default: licence comments in a file of their
	// own in dist/) or "inline" (bundler's legal.go).
	LegalComments string `json:"legalComments,omitempty"`
	// StyleRefs are Styles resolved, with their places in widgetd.json.
	StyleRefs []StyleRef `json:"-"`
}

// LoadProject reads widgetd.json in dir; a missing file gives the zero
// config and no error. checkTargets is the build's check of "targets"
// (esbuild's target names), reported at the field.
func LoadProject(dir string, checkTargets func([]string) error) (Project, error) {
	var pc Project
	file := filepath.Join(dir, layout.ProjectConfigFile)
	data, err := contain.ReadConfigFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return pc, nil
	}
	if err != nil {
		return pc, fmt.Errorf("read project config: %w", err)
	}
	doc, err := strictjson.Parse(file, data)
	if err != nil {
		return pc, err
	}
	if err := doc.CheckKeys("", projectKeys); err != nil {
		return pc, err
	}
	if err := doc.Decode(&pc); err != nil {
		return pc, err
	}
	if pc.Retain < 0 {
		return pc, doc.ErrPath("retain", "retain must be 1 or more (how many builds to keep)")
	}
	if err := checkLimits(doc, dir, &pc); err != nil {
		return pc, err
	}
	if pc.PublicURL != "" {
		if _, err := publicurl.Normalize(pc.PublicURL); err != nil {
			return pc, doc.ErrPath("publicUrl", "%v", err)
		}
	}
	if err := checkTargets(pc.Targets); err != nil {
		return pc, doc.ErrPath("targets", "%v", err)
	}
	if err := checkBridgeMode(doc, pc.Bridge); err != nil {
		return pc, err
	}
	if err := checkLegalComments(doc, pc.LegalComments); err != nil {
		return pc, err
	}
	if pc.StyleRefs, err = ResolveStyleList(doc, dir, pc.Styles); err != nil {
		return pc, err
	}
	return pc, nil
}

// Widget is one discovered, validated widget.
type Widget struct {
	Config WidgetFile
	// Dir is the widget folder (absolute).
	Dir string
	// ConfigFile is the path of widget.json as shown in messages.
	ConfigFile string
	// Entry is the absolute path of the entry file.
	Entry string
	// HTMLEntry is true when Entry is an HTML document.
	HTMLEntry bool
	// Policy is the validated CSP policy (before the public URL is added).
	Policy *cspgen.Policy
	// Inline is the resolved inline mode.
	Inline bool
	// Profiles are the resolved profiles.
	Profiles []string
	// Styles are widget.json's "styles", resolved.
	Styles []StyleRef
}

// LoadWidget reads and validates dir/widget.json. display is the folder as
// shown in messages. The checks run in a fixed order, so the same file
// always gets the same first error.
func LoadWidget(dir, display string, publicURL string) (*Widget, error) {
	file := filepath.Join(display, layout.WidgetConfigFile)
	doc, err := readWidgetDoc(dir, file)
	if err != nil {
		return nil, err
	}
	w := &Widget{Dir: dir, ConfigFile: file}
	if err := doc.Decode(&w.Config); err != nil {
		return nil, err
	}
	steps := []func(*strictjson.Doc) error{
		w.resolveName,
		w.checkText,
		w.resolveEntry,
		w.resolveProfiles,
		func(doc *strictjson.Doc) error { return w.resolveInline(doc, publicURL) },
		w.checkRoot,
		w.checkProvider,
		w.checkDomain,
		w.resolvePolicy,
		w.resolveStyles,
		func(doc *strictjson.Doc) error { return checkBridgeMode(doc, w.Config.Bridge) },
	}
	for _, step := range steps {
		if err := step(doc); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// readWidgetDoc reads and parses dir/widget.json (file as shown in
// messages) and refuses keys widget.json does not have.
func readWidgetDoc(dir, file string) (*strictjson.Doc, error) {
	data, err := contain.ReadConfigFile(filepath.Join(dir, layout.WidgetConfigFile))
	if nr := (*regularfile.NotRegularError)(nil); errors.As(err, &nr) {
		nr.Path = layout.WidgetConfigFile // the diagnostic names the file in full
	}
	if err != nil {
		return nil, diag.Errorf(file, 0, 0, "cannot read widget config: %v", contain.PathErrCause(err))
	}
	doc, err := strictjson.Parse(file, data)
	if err != nil {
		return nil, err
	}
	// In document order of importance, so the same file always gets the
	// same first error.
	for _, level := range []struct {
		path    string
		allowed []string
	}{{"", widgetKeys}, {"csp", cspKeys}, {"permissions", permissionKeys}} {
		if err := doc.CheckKeys(level.path, level.allowed); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// resolveName defaults the name to the folder's and the title to the name,
// and checks the name.
func (w *Widget) resolveName(doc *strictjson.Doc) error {
	c := &w.Config
	if c.Name == "" {
		c.Name = filepath.Base(w.Dir)
		if !nameRE.MatchString(c.Name) {
			return diag.Errorf(w.ConfigFile, 1, 1, "folder name %q is not a valid widget name ([a-z0-9-]+); rename the folder or set \"name\"", c.Name)
		}
	} else if !nameRE.MatchString(c.Name) {
		return doc.ErrPath("name", "name %q must match [a-z0-9-]+ (lower case letters, digits and '-', starting with a letter or digit)", c.Name)
	}
	if len(c.Name) > 64 {
		return doc.ErrPath("name", "name %q is longer than 64 characters", c.Name)
	}
	if c.Title == "" {
		c.Title = c.Name
	}
	return nil
}

// checkText refuses NUL characters in the texts shown to hosts.
func (w *Widget) checkText(doc *strictjson.Doc) error {
	c := &w.Config
	for _, k := range []struct {
		path, value string
	}{{"title", c.Title}, {"description", c.Description}, {"widgetDescription", c.WidgetDescription}} {
		if strings.ContainsAny(k.value, "\x00") {
			return doc.ErrPath(k.path, "%s must not contain NUL characters", k.path)
		}
	}
	return nil
}

// resolveProfiles sets the profiles to emit: both by default, else the
// named ones, sorted and without repeats.
func (w *Widget) resolveProfiles(doc *strictjson.Doc) error {
	c := &w.Config
	w.Profiles = []string{assets.ProfileMCPApp, assets.ProfileSkybridge}
	if !doc.Has("profiles") {
		return nil
	}
	if len(c.Profiles) == 0 {
		return doc.ErrPath("profiles", "profiles must name at least one of \"mcp-app\", \"skybridge\"")
	}
	seen := map[string]bool{}
	w.Profiles = nil
	for i, p := range c.Profiles {
		if p != assets.ProfileMCPApp && p != assets.ProfileSkybridge {
			return doc.ErrPath(fmt.Sprintf("profiles[%d]", i), "unknown profile %q; use \"mcp-app\" or \"skybridge\"", p)
		}
		if !seen[p] {
			seen[p] = true
			w.Profiles = append(w.Profiles, p)
		}
	}
	sort.Strings(w.Profiles)
	return nil
}

// resolveInline decides inline vs external: inline unless a public URL is
// configured, and external only with one.
func (w *Widget) resolveInline(doc *strictjson.Doc, publicURL string) error {
	w.Inline = publicURL == ""
	if w.Config.Inline != nil {
		w.Inline = *w.Config.Inline
		if !w.Inline && publicURL == "" {
			return doc.ErrPath("inline", "\"inline\": false needs a public URL to load files from; pass --public-url or set publicUrl in %s", layout.ProjectConfigFile)
		}
	}
	return nil
}

// checkDomain validates the widget's dedicated origin, when set.
func (w *Widget) checkDomain(doc *strictjson.Doc) error {
	if d := w.Config.Domain; d != "" {
		if err := validateDomain(d); err != nil {
			return doc.ErrPath("domain", "%v", err)
		}
	}
	return nil
}

// resolvePolicy validates the CSP domains into the widget's policy, pointing
// an error at the offending entry.
func (w *Widget) resolvePolicy(doc *strictjson.Doc) error {
	pol, err := cspgen.New(w.Config.CSP)
	if err != nil {
		path := "csp"
		var ve *cspgen.Error
		if errors.As(err, &ve) {
			path = fmt.Sprintf("csp.%s[%d]", ve.Field, ve.Index)
		}
		return doc.ErrPath(path, "%v", err)
	}
	w.Policy = pol
	return nil
}

func (w *Widget) resolveEntry(doc *strictjson.Doc) error {
	c := &w.Config
	rootReal, err := filepath.EvalSymlinks(w.Dir)
	if err != nil {
		return doc.ErrAt(0, "cannot resolve widget folder: %v", contain.PathErrCause(err))
	}
	if c.Entry == "" {
		candidates := layout.DefaultEntries()
		for _, cand := range candidates {
			if st, err := os.Stat(filepath.Join(w.Dir, cand)); err == nil && st.Mode().IsRegular() {
				c.Entry = cand
				break
			}
		}
		if c.Entry == "" {
			return doc.ErrAt(0, "no entry found in %s; add one of %s, or set \"entry\" in widget.json", filepath.Dir(w.ConfigFile), strings.Join(candidates, ", "))
		}
	} else if filepath.IsAbs(c.Entry) || strings.Contains(filepath.ToSlash(c.Entry), "\\") {
		return doc.ErrPath("entry", "entry %q must be a path relative to the widget folder", c.Entry)
	}
	abs := filepath.Join(w.Dir, filepath.FromSlash(c.Entry))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return doc.ErrPath("entry", "entry %q: %v", c.Entry, contain.PathErrCause(err))
	}
	if rel, err := filepath.Rel(rootReal, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return doc.ErrPath("entry", "entry %q is outside the widget folder; move it inside %s", c.Entry, filepath.Dir(w.ConfigFile))
	}
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		return doc.ErrPath("entry", "entry %q is not a regular file", c.Entry)
	}
	switch ext := strings.ToLower(filepath.Ext(real)); ext {
	case ".html", ".htm":
		w.HTMLEntry = true
	case ".tsx", ".ts", ".jsx", ".js", ".mts", ".mjs", ".vue", ".svelte":
	default:
		return doc.ErrPath("entry", "entry %q has an unsupported type %q; use an .html document, a .tsx/.ts/.jsx/.js script, or a .vue/.svelte component", c.Entry, ext)
	}
	w.Entry = abs
	return nil
}

// resolveStyles checks the "styles" list (styles.go).
func (w *Widget) resolveStyles(doc *strictjson.Doc) (err error) {
	w.Styles, err = ResolveStyleList(doc, w.Dir, w.Config.Styles)
	return err
}

// checkRoot validates the "root" field: an HTML id, and only for a script
// entry (an HTML entry provides its own elements).
func (w *Widget) checkRoot(doc *strictjson.Doc) error {
	r := w.Config.Root
	if !doc.Has("root") {
		return nil
	}
	if !rootIDRE.MatchString(r) {
		return doc.ErrPath("root", "root %q must be an HTML id: a letter, then letters, digits, '-', '_', ':' or '.'", r)
	}
	if w.HTMLEntry {
		return doc.ErrPath("root", "\"root\" is for script entries; %s is an HTML entry, so add <div id=%q></div> to it instead", w.Config.Entry, r)
	}
	return nil
}

// rootIDRE is the pattern an HTML id given as widget.json "root" must match.
var rootIDRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:.-]{0,127}$`)

// validateDomain checks a widget domain: an https origin (http only for
// localhost), no path, query or credentials.
func validateDomain(d string) error {
	u, err := url.Parse(d)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("domain %q must be an origin such as https://widgets.example.com", d)
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && publicurl.IsLoopbackHost(u.Hostname())) {
		return fmt.Errorf("domain %q must use https", d)
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("domain %q must be an origin only (no credentials, path, query or fragment)", d)
	}
	if strings.ContainsAny(d, " \t\r\n\"';,") {
		return fmt.Errorf("domain %q contains characters that are not allowed in an origin", d)
	}
	return nil
}

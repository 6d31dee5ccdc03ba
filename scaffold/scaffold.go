// Package scaffold is `widgetd init` and `widgetd new`: project and widget
// templates embedded in the binary, rendered with the project's and the
// widget's names. Every template here is built, rendered and tested end to
// end by this package's tests; a template is only added once the build
// supports what it needs. It is a top-level package, not internal, because
// cmd/widgetd and the edit-loop benchmark (bench/edit) both use it.
package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"

	"github.com/widgetd/widgetd/bundler/bridge"
)

//go:embed all:templates
var templates embed.FS

// Template is one widget template.
type Template struct {
	// Name is what --template takes.
	Name string
	// Description is shown by widgetd init --help.
	Description string
	// NPM says the template needs npm packages (a package.json is written
	// and the user runs npm install).
	NPM bool
	// Install is what adds the template's npm packages to an existing
	// package.json (widgetd new into a project that has one).
	Install string
}

// Templates lists the widget templates, the default first.
var Templates = []Template{
	{Name: "vanilla", Description: "TypeScript and CSS, no npm packages"},
	{Name: "react", Description: "React 19 with TSX (npm install adds React and TypeScript)", NPM: true,
		Install: "npm install react react-dom && npm install --save-dev typescript @types/react @types/react-dom"},
	{Name: "react-tailwind", Description: "React 19 styled with Tailwind CSS v4 (npm install adds React, Tailwind and TypeScript)", NPM: true,
		Install: "npm install react react-dom && npm install --save-dev tailwindcss @tailwindcss/node @tailwindcss/oxide typescript @types/react @types/react-dom"},
	{Name: "vue", Description: "a Vue 3 single-file component, <script setup lang=\"ts\"> (npm install adds Vue and TypeScript)", NPM: true,
		Install: "npm install vue && npm install --save-dev typescript"},
	{Name: "svelte", Description: "a Svelte 5 component with runes (npm install adds Svelte and TypeScript)", NPM: true,
		Install: "npm install --save-dev svelte typescript"},
}

// Versions a generated Go server's go.mod requires; a test keeps them equal
// to widgetd's own go.mod.
const (
	GoVersion      = "1.26.8"
	GoSDKVersion   = "v1.8.0"
	WidgetdVersion = "v0.0.0"
)

// DefaultWidget is the name of the first widget of a new project.
const DefaultWidget = "hello"

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// majorSuffixRE is a module path's major version suffix (/v2, /v3, …).
var majorSuffixRE = regexp.MustCompile(`^v[2-9][0-9]*$`)

// InitOptions configures Init.
type InitOptions struct {
	// Dir is the project folder (created if missing).
	Dir string
	// Template is the widget template; default "vanilla".
	Template string
	// Widget is the first widget's name; default DefaultWidget.
	Widget string
	// Server is "" (widgets only) or "go" (a Go MCP server embedding them).
	Server string
	// Module is the Go module path of the server; default
	// example.com/<folder name>.
	Module string
	// Domain is the widgets' ChatGPT domain (widget.json "domain"); default
	// https://<project>.example.com, to be replaced by the app's own origin.
	Domain string
	// Replace is a local widgetd checkout the server's go.mod replaces the
	// widgetd module with (widgetd is not on a module proxy yet).
	Replace string
}

// Result lists what was written and what the user does next.
type Result struct {
	// Files are the written files, relative to the project folder.
	Files []string
	// NPM says the template needs npm packages: run npm install in NPMDir.
	NPM    bool
	NPMDir string
	// Install adds the template's npm packages to an existing package.json.
	Install string
	// PackageJSON says a package.json was written (else the packages are
	// added to the existing one).
	PackageJSON bool
	// Widget is the widget the Go server's tool shows (Init only).
	Widget string
	// Kept are files of the template that already existed and were left as
	// they were (Init adding a server to a project).
	Kept []string
	// Merged are existing files lines were appended to (.gitignore).
	Merged []string
}

// data is what the templates see.
type data struct {
	Project, Name, Title, Module, Replace, Domain string
	GoVersion, GoSDKVersion, WidgetdVersion       string
	// Server is InitOptions.Server: "go" keeps dist/ out of .gitignore.
	Server string
	// Binary is the name go build gives the server (the module path's last
	// element), which .gitignore ignores.
	Binary string
}

// Init writes a new project into opts.Dir: widgets/<widget>/ from the
// template (widget.json, sources, fixtures), widgets/tsconfig.json,
// widgets/widgetd.d.ts, the JSON Schemas, .gitignore, package.json when the
// template needs npm packages, and with Server "go" a Go MCP server
// (go.mod, main.go, main_test.go, widgets_test.go). Nothing is written when
// any file exists, except that Server "go" into a project that has a
// widgets/ folder adds the server to it (see addServer).
func Init(opts InitOptions) (*Result, error) {
	t, err := lookup(opts.Template)
	if err != nil {
		return nil, err
	}
	if opts.Widget == "" {
		opts.Widget = DefaultWidget
	}
	if err := checkName(opts.Widget); err != nil {
		return nil, err
	}
	if opts.Server != "" && opts.Server != "go" {
		return nil, fmt.Errorf("--server %q: the only server template is go", opts.Server)
	}
	abs, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, err
	}
	project := projectName(filepath.Base(abs))
	d := data{Project: project, Name: opts.Widget, Title: title(opts.Widget), Module: opts.Module, Replace: opts.Replace,
		GoVersion: GoVersion, GoSDKVersion: GoSDKVersion, WidgetdVersion: WidgetdVersion, Server: opts.Server}
	if d.Module == "" {
		d.Module = "example.com/" + project
	}
	d.Binary = binaryName(d.Module)
	d.Domain = opts.Domain
	if d.Domain == "" {
		d.Domain = defaultDomain(project)
	}
	if d.Replace != "" {
		if d.Replace, err = filepath.Abs(d.Replace); err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(d.Replace, "go.mod")); err != nil {
			return nil, fmt.Errorf("--replace %s: not a widgetd checkout (no go.mod): %w", opts.Replace, err)
		}
	}
	if opts.Server == "go" && isDir(filepath.Join(abs, "widgets")) {
		return addServer(abs, t, d)
	}
	files, err := renderProject(t, d)
	if err != nil {
		return nil, err
	}
	res := &Result{NPM: t.NPM, PackageJSON: t.NPM, Widget: d.Name}
	if t.NPM {
		res.NPMDir = "widgets"
	}
	return res, write(abs, files, res)
}

// renderProject renders every file of a new project: the project files, the
// first widget from template t, its npm project files and, with d.Server,
// the Go server.
func renderProject(t Template, d data) (map[string][]byte, error) {
	files := map[string][]byte{}
	if err := render(files, "templates/project", "", d); err != nil {
		return nil, err
	}
	if err := render(files, "templates/"+t.Name, "widgets/"+d.Name, d); err != nil {
		return nil, err
	}
	if t.NPM {
		if err := render(files, "templates/"+t.Name+"-project", "", d); err != nil {
			return nil, err
		}
	}
	if d.Server == "go" {
		if err := render(files, "templates/server-go", "", d); err != nil {
			return nil, err
		}
	}
	dts, err := bridge.DTS()
	if err != nil {
		return nil, err
	}
	files["widgets/widgetd.d.ts"] = dts
	return files, nil
}

// New adds one widget from a template to the widgets folder widgetsDir. A
// template that needs npm packages writes widgets/package.json when there is
// none (otherwise the user adds the packages: Result.NPM, Result.Install),
// and its other project files (vue.d.ts) when they are missing.
func New(widgetsDir, name, tmpl string) (*Result, error) {
	t, err := lookup(tmpl)
	if err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	if st, err := os.Stat(widgetsDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("widgets folder %s not found; run widgetd init first, or pass --widgets", widgetsDir)
	}
	abs, err := filepath.Abs(widgetsDir)
	if err != nil {
		return nil, err
	}
	project := projectName(filepath.Base(filepath.Dir(abs)))
	d := data{Project: project, Name: name, Title: title(name), Domain: defaultDomain(project)}
	files := map[string][]byte{}
	if err := render(files, "templates/"+t.Name, name, d); err != nil {
		return nil, err
	}
	res := &Result{NPM: t.NPM, NPMDir: ".", Install: t.Install}
	if t.NPM {
		// The template's project files (package.json, type declarations)
		// that the widgets folder lacks.
		shared := map[string][]byte{}
		if err := render(shared, "templates/"+t.Name+"-project/widgets", "", d); err != nil {
			return nil, err
		}
		for n, content := range shared {
			if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(n))); errors.Is(err, os.ErrNotExist) {
				files[n] = content
				res.PackageJSON = res.PackageJSON || n == "package.json"
			}
		}
	}
	return res, write(abs, files, res)
}

func lookup(name string) (Template, error) {
	if name == "" {
		return Templates[0], nil
	}
	var names []string
	for _, t := range Templates {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return Template{}, fmt.Errorf("unknown template %q; templates: %s", name, strings.Join(names, ", "))
}

func checkName(name string) error {
	if !nameRE.MatchString(name) || len(name) > 64 {
		return fmt.Errorf("widget name %q: use lowercase letters, digits and dashes, starting with a letter or digit (it becomes ui://widget/<name>…)", name)
	}
	return nil
}

// projectName turns a folder name into a module-path-safe project name.
func projectName(base string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	if s := strings.Trim(b.String(), "-."); s != "" {
		return s
	}
	return "widgets"
}

// binaryName is the name go build gives a main package at the root of
// module: its path's last element, or the one before a major version suffix.
func binaryName(module string) string {
	elems := strings.Split(module, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && majorSuffixRE.MatchString(last) {
		return elems[len(elems)-2]
	}
	return last
}

// defaultDomain is the placeholder ChatGPT domain of a new project's
// widgets: an HTTPS origin that passes check, to be replaced by the app's own.
func defaultDomain(project string) string {
	host := strings.Trim(strings.NewReplacer("_", "-", ".", "-").Replace(project), "-")
	if host == "" {
		host = "widgets"
	}
	return "https://" + host + ".example.com"
}

// title is "my-widget" → "My widget".
func title(name string) string {
	s := strings.ReplaceAll(name, "-", " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// render adds the files under dir of the embedded templates to files, at
// prefix: "gitignore" becomes ".gitignore", a ".tmpl" suffix is dropped, and
// every file goes through text/template.
func render(files map[string][]byte, dir, prefix string, d data) error {
	return fs.WalkDir(templates, dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		src, err := templates.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, dir+"/"), ".tmpl")
		if rel == "gitignore" {
			rel = ".gitignore"
		}
		tpl, err := template.New(p).Option("missingkey=error").Parse(string(src))
		if err != nil {
			return fmt.Errorf("template %s: %w", p, err)
		}
		var out bytes.Buffer
		if err := tpl.Execute(&out, d); err != nil {
			return fmt.Errorf("template %s: %w", p, err)
		}
		files[path.Join(prefix, rel)] = out.Bytes()
		return nil
	})
}

// write writes files below root after checking that none exists, so a
// refused scaffold leaves nothing behind.
func write(root string, files map[string][]byte, res *Result) error {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(n))); err == nil {
			return fmt.Errorf("%s already exists; nothing was written (pick an empty folder or another name)", filepath.Join(root, filepath.FromSlash(n)))
		}
	}
	for _, n := range names {
		p := filepath.Join(root, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[n], 0o644); err != nil {
			return err
		}
		res.Files = append(res.Files, n)
	}
	return nil
}

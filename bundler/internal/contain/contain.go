// Package contain is the one contained reader of a build: the set of
// folders a build may read from (the project, the widgets folder, the
// node_modules Node's resolution searches, "allowOutside"), the esbuild
// plugin that checks every file esbuild loads against it, and the bounded
// readers every other file the build reads goes through (sources, config
// files, the files it only consults). It refuses a path outside those
// folders, a FIFO, socket or device, and a file over the size limit, each
// with a limit Error that carries the diag code `widgetd check` reports.
// It is its own package so that the rules live in one place with their own
// tests, apart from the build that calls them; bundler's
// TestEveryReaderIsListed keeps every other reader out.
package contain

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// A build reads only files inside the project, so a CI that builds an
// untrusted pull request cannot be made to publish the runner's files
// (`import t from "../../../../etc/passwd" with {type: "text"}`, a symlink to
// ~/.ssh, a CSS url() to a secret). Every path esbuild resolves (imports of
// any kind, import attributes, CSS @import and url(), the widgets' HTML
// references) is checked by its real path, symlinks followed, against:
//
//   - the project root (the folder of widgetd.json), and the widgets
//     folder when it is configured (--widgets, "widgetsDir") outside it;
//   - the node_modules folders Node's resolution searches from the
//     project's own files: below the project (and the widgets folder), and
//     in the folders above it up to the repository or workspace root (the
//     first folder with .git, pnpm-workspace.yaml, or a package.json
//     declaring "workspaces"), where npm, yarn and pnpm workspaces hoist
//     packages. Only a node_modules that is a real folder is allowed this
//     way: one that is a symlink (to /etc, to /) adds nothing, so what it
//     leads to is read only when its real path is itself an allowed folder
//     (inside the project, an allowOutside folder, a hoisted node_modules).
//     A package inside an allowed node_modules that links elsewhere (npm
//     link, a workspace package) is checked by its real path the same way;
//     pnpm's links into node_modules/.pnpm stay inside;
//   - the folders named in widgetd.json "allowOutside", on purpose.
//
// Anything else is an error at the import's file:line:col that names the
// setting. And only regular files are read, within maxSourceSize
// (read.go): a FIFO, socket or device is refused at the import that
// names it, before anything opens it.

// Reader is the set of folders a build may read from, and the reader
// that reads only from them. Make one with New; it is safe for concurrent
// use by esbuild's plugins.
type Reader struct {
	display displaypath.Base // how messages show paths
	root    string           // project root, real path
	roots   []string         // root and the widgets folder when outside it, real paths
	outside []string         // allowOutside folders, real paths
	maxSize int64            // largest source file, bytes

	mu      sync.Mutex
	modules map[string]bool   // real paths of node_modules folders allowed
	walked  map[string]bool   // folders whose node_modules chain was added
	real    map[string]string // folder → real path, cached
	// configsOK holds the folders whose resolver configs were checked
	// (resolverconfigs.go), this build.
	configsOK map[string]bool
}

// realDir is the real path of folder dir (itself when it cannot be
// resolved), cached: every import of a folder asks.
func (c *Reader) realDir(dir string) string {
	c.mu.Lock()
	r, ok := c.real[dir]
	c.mu.Unlock()
	if ok {
		return r
	}
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		r = dir
	}
	c.mu.Lock()
	c.real[dir] = r
	c.mu.Unlock()
	return r
}

// New resolves the project root, the widgets folder and the
// allowOutside folders (relative to the root) to real paths. Its messages
// show paths through display.
func New(root, widgetsDir string, allowOutside []string, maxSize int64, display displaypath.Base) (*Reader, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	if maxSize <= 0 {
		maxSize = DefaultMaxSourceSize
	}
	c := &Reader{display: display, root: real, roots: []string{real}, maxSize: maxSize, modules: map[string]bool{}, walked: map[string]bool{}, real: map[string]string{}, configsOK: map[string]bool{}}
	if wd, err := filepath.EvalSymlinks(widgetsDir); err == nil && !Within(real, wd) {
		c.roots = append(c.roots, wd)
	}
	for _, o := range allowOutside {
		p := o
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, filepath.FromSlash(o))
		}
		rp, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, fmt.Errorf("%s: allowOutside %q: %w", layout.ProjectConfigFile, o, PathErrCause(err))
		}
		c.outside = append(c.outside, rp)
	}
	c.Reset()
	return c, nil
}

// Reset forgets the folders learnt during a build (real paths, node_modules)
// so a rebuild sees symlinks as they are now, and allows the node_modules
// above each root again.
func (c *Reader) Reset() {
	c.mu.Lock()
	clear(c.modules)
	clear(c.walked)
	clear(c.real)
	clear(c.configsOK)
	c.mu.Unlock()
	for _, r := range c.roots {
		c.addModules(r, workspaceTop(r))
	}
}

// workspaceTop is the first folder from dir upwards that is a repository or
// workspace root, or the file system root when there is none.
func workspaceTop(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if isWorkspaceRoot(d) || filepath.Dir(d) == d {
			return d
		}
	}
}

func isWorkspaceRoot(d string) bool {
	for _, marker := range []string{".git", "pnpm-workspace.yaml"} {
		if _, err := os.Lstat(filepath.Join(d, marker)); err == nil {
			return true
		}
	}
	data, err := ReadBounded(filepath.Join(d, "package.json"))
	if err != nil || len(data) > 1<<20 {
		return false
	}
	var pkg struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	return json.Unmarshal(data, &pkg) == nil && len(pkg.Workspaces) > 0 && string(pkg.Workspaces) != "null"
}

// addModules allows the node_modules folder of every folder from dir (a
// real path) up to and including top, where it is a real folder: a
// node_modules that is a symlink allows nothing of its own (see above).
func (c *Reader) addModules(dir, top string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for d := dir; ; d = filepath.Dir(d) {
		if c.walked[d] {
			return
		}
		c.walked[d] = true
		nm := filepath.Join(d, "node_modules")
		if st, err := os.Lstat(nm); err == nil && st.IsDir() {
			c.modules[nm] = true
		}
		if d == top || filepath.Dir(d) == d {
			return
		}
	}
}

// noteImporter allows the node_modules folders an import from dir (a real
// path) searches, when dir is inside the project.
func (c *Reader) noteImporter(dir string) {
	for _, r := range c.roots {
		if dir != "" && Within(r, dir) {
			c.addModules(dir, r)
		}
	}
}

// Within reports whether p is base or below it (both clean, absolute).
func Within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && filepath.IsLocal(rel)
}

// allows reports whether the real path p may be read.
func (c *Reader) allows(p string) bool {
	for _, list := range [][]string{c.roots, c.outside} {
		for _, o := range list {
			if Within(o, p) {
				return true
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for nm := range c.modules {
		if Within(nm, p) {
			return true
		}
	}
	return false
}

// Check returns why the file at p may not be read, or nil. spec is how the
// source named it; named, when not "", is the path spec names before any
// symlink is followed (esbuild hands over real paths).
func (c *Reader) Check(spec, p, named string) error {
	real, err := c.realFile(p)
	if err != nil {
		return nil // does not exist: esbuild reports it
	}
	if !c.allows(real) {
		suggest, err := filepath.Rel(c.root, filepath.Dir(real))
		if err != nil {
			suggest = filepath.Dir(real)
		}
		via := ""
		if named == "" {
			named = p
		}
		if named = filepath.Clean(named); named != real {
			if r, err := filepath.EvalSymlinks(named); err == nil && r == real {
				via = fmt.Sprintf(" through a symlink at %s", c.display.Show(named))
			}
		}
		what := "this import"
		if spec != "" {
			what = strconv.Quote(spec)
		}
		return &Error{diag.CodeOutsideProject, fmt.Sprintf("%s resolves%s to %s, outside the project (%s) and the node_modules it uses; a build reads only files inside the project. To bundle a folder outside it on purpose, add it to \"allowOutside\" in %s, e.g. \"allowOutside\": [%q]",
			what, via, real, c.root, layout.ProjectConfigFile, filepath.ToSlash(suggest))}
	}
	named = spec
	if named == "" {
		named = c.display.Show(p) // esbuild's loads name no specifier
	}
	if err := checkRegular(named, real); err != nil {
		return err
	}
	return c.checkSize(spec, real)
}

// Show is p as the build's messages show it.
func (c *Reader) Show(p string) string { return c.display.Show(p) }

// AllowsFile reports whether the existing file p, by its real path, lies
// where a build may read (false when p does not exist).
func (c *Reader) AllowsFile(p string) bool {
	real, err := c.realFile(p)
	return err == nil && c.allows(real)
}

// realFile is the real path of p: its folder's (cached) real path, and p
// itself followed when it is a symlink.
func (c *Reader) realFile(p string) (string, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return "", err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return filepath.EvalSymlinks(p)
	}
	return filepath.Join(c.realDir(filepath.Dir(p)), filepath.Base(p)), nil
}

// Plugin checks every file esbuild loads (any import kind, import
// attributes, CSS @import and url() included). esbuild hands over real
// paths, and reports a load error at the location of the import that
// brought the file in.
func (c *Reader) Plugin() api.Plugin {
	return api.Plugin{Name: "widgetd-contain", Setup: func(pb api.PluginBuild) {
		// Note where imports are resolved from: the node_modules folders
		// those folders search are allowed. An importer is always loaded
		// (and noted) before the files it imports.
		pb.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.ResolveDir != "" {
				c.noteImporter(c.realDir(a.ResolveDir))
				if err := c.checkResolverConfigs(a.ResolveDir, a.Path); err != nil {
					return api.OnResolveResult{Errors: []api.Message{Message(err)}}, nil
				}
			}
			return api.OnResolveResult{}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			if err := c.Check("", a.Path, ""); err != nil {
				return LoadError(err), nil // the code rides as the plugin name
			}
			if err := c.checkResolverConfigs(filepath.Dir(a.Path), ""); err != nil {
				return LoadError(err), nil
			}
			c.noteImporter(c.realDir(filepath.Dir(a.Path)))
			return api.OnLoadResult{}, nil // esbuild loads it as usual
		})
	}}
}

// CheckWidget refuses a widget folder that is (or whose entry is) outside
// the project, e.g. a symlinked folder, and an entry over the size limit.
// entrySpec is the entry as widget.json names it, entry its path.
func (c *Reader) CheckWidget(dir, entrySpec, entry string) error {
	if err := c.Check(filepath.Base(dir), dir, ""); err != nil {
		return Diag(c.display.Show(dir), 0, 0, &Error{CodeOf(err), "widget folder " + err.Error()})
	}
	if err := c.Check(entrySpec, entry, ""); err != nil {
		return Diag(c.display.Show(entry), 0, 0, &Error{CodeOf(err), "entry " + err.Error()})
	}
	return nil
}

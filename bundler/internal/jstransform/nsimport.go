package jstransform

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2/js"
)

// Namespace re-exports and tree shaking.
//
// zod's entry modules (and any package written the same way) do
//
//	import * as z from "./external.js"; export * from "./external.js"; export { z, z as default };
//
// and users write `import { z } from "zod"`. Rollup and Rolldown follow
// `z.object` through the re-exported namespace and keep only what is used;
// esbuild only shakes a namespace accessed in the module that wrote
// `import * as`, so it keeps the whole namespace object: for zod every
// locale, JSON-schema converter and checker, ~380 kB of a widget (bench/shapes).
// Because the entry also does `export * from` the same module, importing the
// entry as a namespace gives the same members, and esbuild shakes that. So a
// named or default import of such a binding becomes
// `import * as local from "same specifier"` before esbuild parses the module
// (rewrite). A binding re-exported with `export * as util from "./util.js"`
// (zod's core does this) is imported as `import * as util from "<path of
// util.js>"`. Both sides are read with a JavaScript parser (jsmodule.go):
// the package's modules for what they re-export, the importing module for
// where its import declarations and their tokens are.

// NamespaceReexports finds, per module file, the exported names that are a
// namespace of a module: one the file also re-exports with `export *`
// (import it as a namespace by the same specifier), or one it re-exports
// with `export * as` (import that module as a namespace instead). The map
// holds, per name, "" for the first kind and the module's path for the
// second.
type NamespaceReexports struct {
	read     ReadFunc
	mu       sync.Mutex
	cache    map[string]map[string]string
	resolved map[[2]string]string // (folder, specifier) → file, "" if none
}

// ReadFunc reads the file at path for the build, through its containment
// checks (spec and named as the build's reader takes them).
type ReadFunc func(spec, path, named string) ([]byte, error)

// NewNamespaceReexports returns an empty cache of namespace re-exports that
// reads modules with read. One serves one esbuild build.
func NewNamespaceReexports(read ReadFunc) *NamespaceReexports {
	return &NamespaceReexports{read: read, cache: map[string]map[string]string{}, resolved: map[[2]string]string{}}
}

// resolve is resolveModuleFile, remembered per folder and specifier: the
// modules of one package import the same few specifiers again and again.
func (n *NamespaceReexports) resolve(pb api.PluginBuild, spec, importer string) string {
	key := [2]string{filepath.Dir(importer), spec}
	n.mu.Lock()
	p, ok := n.resolved[key]
	n.mu.Unlock()
	if ok {
		return p
	}
	p = resolveModuleFile(pb, spec, importer)
	n.mu.Lock()
	n.resolved[key] = p
	n.mu.Unlock()
	return p
}

// names returns the namespace re-exports of the module at path: its own,
// and (but for default) those of the modules it re-exports with `export *`,
// a few levels deep. Only small modules are read: such entry modules are a
// few lines, and the build reads every module through here.
func (n *NamespaceReexports) names(pb api.PluginBuild, path string, depth int) map[string]string {
	n.mu.Lock()
	got, ok := n.cache[path]
	n.mu.Unlock()
	if ok {
		return got
	}
	got = map[string]string{}
	if data, err := n.read("", path, ""); err == nil && len(data) < 16<<10 {
		if m, ok := parseJSModule(string(data)); ok {
			n.collect(pb, m.reexports(), path, depth, got)
		}
	}
	n.mu.Lock()
	n.cache[path] = got
	n.mu.Unlock()
	return got
}

// resolveModuleFile resolves spec imported from the file importer to a file path,
// "" when it is not a file.
func resolveModuleFile(pb api.PluginBuild, spec, importer string) string {
	r := pb.Resolve(spec, api.ResolveOptions{Kind: api.ResolveJSImportStatement, ResolveDir: filepath.Dir(importer), Importer: importer})
	if len(r.Errors) > 0 || r.Namespace != "file" {
		return ""
	}
	return r.Path
}

// importSpec is the specifier by which file imports the module at path.
func importSpec(file, path string) string {
	rel, err := filepath.Rel(filepath.Dir(file), path)
	if err != nil {
		return path
	}
	rel = filepath.ToSlash(rel)
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel
}

// collect adds to got the namespace re-exports found in r, the
// re-exports of the module at path.
func (n *NamespaceReexports) collect(pb api.PluginBuild, r moduleReexports, path string, depth int, got map[string]string) {
	for name := range r.ownNamespaces() {
		got[name] = ""
	}
	for name, spec := range r.starAs {
		if p := resolveModuleFile(pb, spec, path); p != "" {
			got[name] = p
		}
	}
	for _, spec := range r.star {
		p := resolveModuleFile(pb, spec, path)
		if depth >= 3 || p == "" {
			continue
		}
		for name, module := range n.names(pb, p, depth+1) {
			if _, own := got[name]; name != "default" && !own {
				got[name] = module
			}
		}
	}
}

// moduleReexports is what a module's top-level import and export
// statements say about namespaces.
type moduleReexports struct {
	nsImports map[string]string // import * as local from spec: local → spec
	star      []string          // export * from spec
	starAs    map[string]string // export * as name from spec: name → spec
	exports   [][2]string       // export { local as exported } (no from clause)
}

// reexports reads the parsed module's import and export statements.
func (m jsModule) reexports() moduleReexports {
	r := moduleReexports{nsImports: map[string]string{}, starAs: map[string]string{}}
	for _, stmt := range m.ast.BlockStmt.List {
		switch s := stmt.(type) {
		case *js.ImportStmt:
			if len(s.List) == 1 && string(s.List[0].Name) == "*" {
				r.nsImports[string(s.List[0].Binding)] = unquoteName(string(s.Module))
			}
		case *js.ExportStmt:
			r.addExport(s)
		}
	}
	return r
}

// addExport records one export statement.
func (r *moduleReexports) addExport(s *js.ExportStmt) {
	if s.Decl != nil || s.Default {
		return
	}
	spec := unquoteName(string(s.Module))
	if len(s.List) == 1 && s.Module != nil && string(s.List[0].Binding) == "*" && s.List[0].Name == nil {
		r.star = append(r.star, spec)
		return
	}
	if len(s.List) == 1 && s.Module != nil && string(s.List[0].Name) == "*" {
		r.starAs[string(s.List[0].Binding)] = spec
		return
	}
	if s.Module != nil {
		return
	}
	for _, a := range s.List {
		if a.Binding == nil {
			continue // a trailing comma
		}
		local := a.Binding
		if a.Name != nil {
			local = a.Name
		}
		r.exports = append(r.exports, [2]string{string(local), unquoteName(string(a.Binding))})
	}
}

// ownNamespaces returns the names the module exports that are a namespace
// import of a module it also re-exports whole (`export * from` it).
func (r moduleReexports) ownNamespaces() map[string]bool {
	got := map[string]bool{}
	for _, e := range r.exports {
		spec, ok := r.nsImports[e[0]]
		if ok && containsString(r.star, spec) {
			got[e[1]] = true
		}
	}
	return got
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Rewrite returns src with every value import of a namespace re-export
// made a namespace import (namespaceImports), and whether it changed.
func (n *NamespaceReexports) Rewrite(pb api.PluginBuild, file, src string) (string, bool) {
	if !strings.Contains(src, "import") {
		return src, false
	}
	return namespaceImports(file, src, func(spec string) map[string]string {
		target := n.resolve(pb, spec, file)
		if target == "" {
			return nil
		}
		return n.names(pb, target, 0)
	})
}

// namespaceImports returns the module src of file with every value import
// of a namespace re-export made a namespace import instead, and whether it
// changed; namespaces gives the namespace re-exports of the module a
// specifier names (NamespaceReexports.names). The binding keeps its place in its
// declaration under an unused name (so the module is still requested at
// the same point, and a TypeScript compiler drops the binding), and
// `import * as local from "…"` follows right after the declaration's
// specifier, on the same line: no line moves, so positions in messages and
// source maps stay true. Only the tokens the parser or the prologue reader
// located are edited (moduleImports). In a JavaScript module, a member
// namespace read through a namespace binding (core.util.x) is imported too
// (memberNamespaceEdits).
func namespaceImports(file, src string, namespaces func(spec string) map[string]string) (string, bool) {
	var m jsModule
	parsed := false
	if LoaderFor(file) == api.LoaderJS {
		m, parsed = parseJSModule(src)
	}
	decls := importPrologue
	if parsed {
		decls = func(string) []importDecl { return m.imports() }
	}
	var edits []textEdit
	locals := map[string]nsBinding{}
	for _, d := range decls(src) {
		ns := namespaces(d.spec)
		if d.namespace != "" {
			locals[d.namespace] = nsBinding{after: d.after, names: ns}
		}
		for _, b := range d.bindings {
			module, ok := ns[b.imported]
			if !ok {
				continue
			}
			unused := unusedName(src, "__widgetd_unused_"+b.local)
			replace := unused
			if !b.renamed {
				replace = b.token + " as " + unused
			}
			spec := d.quoted
			if module != "" {
				spec = strconv.Quote(importSpec(file, module))
			} else {
				locals[b.local] = nsBinding{after: d.after, names: ns}
			}
			edits = append(edits, textEdit{at: b.at, remove: len(b.token), insert: replace},
				textEdit{at: d.after, insert: ";import * as " + b.local + " from " + spec})
		}
	}
	if parsed {
		edits = append(edits, m.memberNamespaceEdits(src, file, locals)...)
	}
	if len(edits) == 0 {
		return src, false
	}
	return applyEdits(src, edits)
}

// nsBinding is a module's namespace binding (import * as, or one
// namespaceImports makes): where its declaration's specifier ends, and the
// namespaces that module re-exports.
type nsBinding struct {
	after int
	names map[string]string
}

package bundler

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
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
// named or default import of such a binding is rewritten to
// `import * as local from "same specifier"` before esbuild parses the module.
// A binding re-exported with `export * as util from "./util.js"` (zod's core
// does this) is imported as `import * as util from "<path of util.js>"`.

// namedImportRE matches a static import of named bindings and/or a default
// binding (minified or not). Groups: default binding, named list, quote,
// specifier, quote.
var namedImportRE = regexp.MustCompile(`\bimport\s*(?:([A-Za-z_$][\w$]*)\s*,?\s*)?(?:\{([^{}]*)\})?\s*from\s*(["'])([^"']+)(["'])`)

// namespaceImportRE matches `import * as N from "M"`; groups: N, M.
var namespaceImportRE = regexp.MustCompile(`\bimport\s*\*\s*as\s+([A-Za-z_$][\w$]*)\s+from\s*["']([^"']+)["']`)

// exportListRE matches `export { … }`; group: the list. A match followed by
// a from clause re-exports another module's bindings and is skipped.
var exportListRE = regexp.MustCompile(`\bexport\s*\{([^{}]*)\}`)

// fromClauseRE matches the start of a from clause.
var fromClauseRE = regexp.MustCompile(`^\s*from\b`)

// exportStarRE matches `export * from "R"`; group: R.
var exportStarRE = regexp.MustCompile(`\bexport\s*\*\s*from\s*["']([^"']+)["']`)

// exportStarAsRE matches `export * as N from "M"`; groups: N, M.
var exportStarAsRE = regexp.MustCompile(`\bexport\s*\*\s*as\s+([A-Za-z_$][\w$]*)\s+from\s*["']([^"']+)["']`)

// nsReexports finds, per module file, the exported names that are a
// namespace of a module: one the file also re-exports with `export *`
// (import it as a namespace by the same specifier), or one it re-exports
// with `export * as` (import that module as a namespace instead). The map
// holds, per name, "" for the first kind and the module's path for the
// second.
type nsReexports struct {
	b        *Builder
	mu       sync.Mutex
	cache    map[string]map[string]string
	resolved map[[2]string]string // (folder, specifier) → file, "" if none
}

// resolve is resolveModuleFile, remembered per folder and specifier: the
// modules of one package import the same few specifiers again and again.
func (n *nsReexports) resolve(pb api.PluginBuild, spec, importer string) string {
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
func (n *nsReexports) names(pb api.PluginBuild, path string, depth int) map[string]string {
	n.mu.Lock()
	got, ok := n.cache[path]
	n.mu.Unlock()
	if ok {
		return got
	}
	got = map[string]string{}
	if data, err := n.b.contain.readFile("", path, ""); err == nil && len(data) < 16<<10 {
		src := string(data)
		for name := range ownNamespaceReexports(src) {
			got[name] = ""
		}
		for _, m := range exportStarAsRE.FindAllStringSubmatch(src, -1) {
			if p := resolveModuleFile(pb, m[2], path); p != "" {
				got[m[1]] = p
			}
		}
		for _, m := range exportStarRE.FindAllStringSubmatch(src, -1) {
			p := resolveModuleFile(pb, m[1], path)
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

// ownNamespaceReexports returns the names src exports that are a namespace
// import of a module src also re-exports whole (`export * from` it).
func ownNamespaceReexports(src string) map[string]bool {
	got := map[string]bool{}
	for _, m := range namespaceImportRE.FindAllStringSubmatch(src, -1) {
		if !reexportsAll(src, m[2]) {
			continue
		}
		for _, e := range exportListRE.FindAllStringSubmatchIndex(src, -1) {
			if fromClauseRE.MatchString(src[e[1]:]) {
				continue
			}
			for _, item := range strings.Split(src[e[2]:e[3]], ",") {
				if local, exported := splitAs(item); local == m[1] {
					got[exported] = true
				}
			}
		}
	}
	return got
}

// reexportsAll reports whether src has `export * from "spec"`.
func reexportsAll(src, spec string) bool {
	for _, m := range exportStarRE.FindAllStringSubmatch(src, -1) {
		if m[1] == spec {
			return true
		}
	}
	return false
}

// splitAs splits "a as b" (or "a") into local and exported names.
func splitAs(item string) (string, string) {
	f := strings.Fields(item)
	switch {
	case len(f) == 1:
		return f[0], f[0]
	case len(f) == 3 && f[1] == "as":
		return f[0], f[2]
	}
	return "", ""
}

// rewrite returns src with every import of a namespace re-export turned
// into a namespace import of the same specifier, and whether it changed.
// Each rewritten statement keeps its line count, so positions in messages
// and source maps stay on the right line.
func (n *nsReexports) rewrite(pb api.PluginBuild, file, src string) (string, bool) {
	if !strings.Contains(src, "import") {
		return src, false
	}
	changed := false
	out := namedImportRE.ReplaceAllStringFunc(src, func(stmt string) string {
		m := namedImportRE.FindStringSubmatch(stmt)
		if m[3] != m[5] || (m[1] == "" && m[2] == "") || strings.HasPrefix(strings.TrimSpace(stmt[len("import"):]), "type ") {
			return stmt
		}
		target := n.resolve(pb, m[4], file)
		if target == "" {
			return stmt
		}
		ns := n.names(pb, target, 0)
		if len(ns) == 0 {
			return stmt
		}
		q := m[3] + m[4] + m[3]
		var stars, rest []string
		star := func(name, local string) {
			spec := q
			if module := ns[name]; module != "" {
				spec = strconv.Quote(importSpec(file, module))
			}
			stars = append(stars, "import * as "+local+" from "+spec+";")
		}
		if m[1] != "" {
			if _, ok := ns["default"]; ok {
				star("default", m[1])
			} else {
				rest = append(rest, "default as "+m[1])
			}
		}
		for _, item := range strings.Split(m[2], ",") {
			if strings.TrimSpace(item) == "" {
				continue
			}
			imported, local := splitAs(item)
			if _, ok := ns[imported]; ok && imported != "" {
				star(imported, local)
				continue
			}
			rest = append(rest, strings.TrimSpace(item))
		}
		if len(stars) == 0 {
			return stmt
		}
		changed = true
		var sb strings.Builder
		for _, imp := range stars {
			sb.WriteString(imp)
		}
		if len(rest) > 0 {
			sb.WriteString("import { " + strings.Join(rest, ", ") + " } from " + q + ";")
		}
		sb.WriteString(strings.Repeat("\n", strings.Count(stmt, "\n")))
		return sb.String()
	})
	return out, changed
}

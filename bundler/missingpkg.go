package bundler

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/npminstall"
	"github.com/widgetd/widgetd/bundler/internal/specifier"
	"github.com/widgetd/widgetd/diag"
)

// A project whose `npm install` was never run fails on every import of
// every package, in every widget and in the client bridge: six errors that
// each suggest installing one package. The build folds them into one
// diagnostic per package.json that lists the packages, with the install
// command of the project's package manager.

// missingPackage is an npm package a build could not find: pkg, imported
// from a folder whose nearest package.json is in dir (absolute).
type missingPackage struct{ pkg, dir string }

// missingPackageOf reports the package m says is missing: a bare import
// that did not resolve (not a Node.js built-in, not a path the package
// fails to export), or a compiler's missing package (its Detail).
func (b *Builder) missingPackageOf(m api.Message) (missingPackage, bool) {
	if mp, ok := m.Detail.(missingPackage); ok {
		return mp, true
	}
	sub := couldNotResolveRE.FindStringSubmatch(m.Text)
	if sub == nil || !specifier.IsBare(sub[1]) {
		return missingPackage{}, false
	}
	for _, n := range m.Notes {
		if builtinRE.MatchString(n.Text) || notExportedRE.MatchString(n.Text) {
			return missingPackage{}, false
		}
	}
	dir := b.importerInstallDir(m.Location)
	if dir == "" {
		return missingPackage{}, false
	}
	pkg, _ := specifier.SplitPackage(sub[1])
	return missingPackage{pkg: pkg, dir: dir}, true
}

// importerInstallDir is the absolute folder holding the package.json
// nearest the file loc names (a client bridge module's: the folder its
// imports resolve from), "" when unknown.
func (b *Builder) importerInstallDir(loc *api.Location) string {
	if loc == nil {
		return ""
	}
	if rest, ok := strings.CutPrefix(loc.File, bridgeNamespace+":"); ok || loc.Namespace == bridgeNamespace {
		_, resolveDir, found := strings.Cut(rest, resolveDirMark)
		if !found {
			return ""
		}
		return installDirFor("", filepath.Join(rootFile(b.root, resolveDir), "x"))
	}
	if w := b.inlineScriptWidget(loc.File); w != nil {
		return installDirFor("", w.Entry)
	}
	if loc.Namespace == "" || loc.Namespace == "file" {
		return installDirFor(b.root, loc.File)
	}
	return ""
}

// foldMissingPackages returns one diagnostic per package.json whose listed
// packages are not installed, and the other messages in their order, a
// package missing and not listed only at its first import.
func (b *Builder) foldMissingPackages(ms []api.Message) (folded []diag.Diagnostic, rest []api.Message) {
	byDir := map[string]map[string]bool{}
	undeclared := map[missingPackage]bool{}
	for _, m := range ms {
		mp, ok := b.missingPackageOf(m)
		if !ok {
			rest = append(rest, m)
			continue
		}
		if !npminstall.Declared(mp.dir, mp.pkg) {
			// One message per package not listed, at its first import.
			if !undeclared[mp] {
				rest = append(rest, m)
			}
			undeclared[mp] = true
			continue
		}
		if byDir[mp.dir] == nil {
			byDir[mp.dir] = map[string]bool{}
		}
		byDir[mp.dir][mp.pkg] = true
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		pkgs := make([]string, 0, len(byDir[d]))
		for p := range byDir[d] {
			pkgs = append(pkgs, p)
		}
		sort.Strings(pkgs)
		shown := b.displayPath(d) + string(filepath.Separator)
		folded = append(folded, diag.Diagnostic{
			File: b.displayPath(filepath.Join(d, "package.json")),
			Message: fmt.Sprintf("packages in %s are not installed (%s); run `%s install` in %s",
				b.displayPath(filepath.Join(d, "package.json")), strings.Join(pkgs, ", "), npminstall.PackageManager(d, b.root), shown),
		})
	}
	return folded, rest
}

// Package npminstall says how to install what a build found missing: which
// package manager a project uses (its lock file, or package.json's
// "packageManager"), the command that adds a package with it, whether a
// package.json lists a package its node_modules lacks (an install never
// run), and which packages each npm compiler needs. It is its own package
// because these rules are about npm projects, not bundling: they read only
// package.json files and lock files, and the build's messages (a missing
// import, a missing compiler) all word their advice through them.
package npminstall

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/internal/regularfile"
)

// maxManifestSize bounds a package.json read here, as the build bounds
// every file it consults; a larger one counts as absent.
const maxManifestSize = 50 << 20

// Declared reports whether dir/package.json lists pkg among its
// dependencies of any kind while dir/node_modules lacks it: a project
// whose install was not run (or not finished).
func Declared(dir, pkg string) bool {
	data, err := regularfile.Read(filepath.Join(dir, "package.json"), maxManifestSize)
	if err != nil {
		return false
	}
	var manifest map[string]json.RawMessage
	if json.Unmarshal(data, &manifest) != nil {
		return false
	}
	for _, field := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
		var deps map[string]any
		if json.Unmarshal(manifest[field], &deps) == nil {
			if _, ok := deps[pkg]; ok {
				_, statErr := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
				return statErr != nil
			}
		}
	}
	return false
}

// PackageManager names the package manager of the project whose
// package.json is in dir, from its lock file (in dir or a folder above it
// up to root, for workspaces) or package.json's "packageManager": pnpm,
// yarn, else npm.
func PackageManager(dir, root string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, lock := range lockFiles {
			if _, err := os.Stat(filepath.Join(d, lock.file)); err == nil {
				return lock.pm
			}
		}
		if data, err := regularfile.Read(filepath.Join(d, "package.json"), maxManifestSize); err == nil {
			var manifest struct {
				PackageManager string `json:"packageManager"`
			}
			if json.Unmarshal(data, &manifest) == nil && manifest.PackageManager != "" {
				name, _, _ := strings.Cut(manifest.PackageManager, "@")
				if name == "pnpm" || name == "yarn" || name == "npm" {
					return name
				}
			}
		}
		if d == root || filepath.Dir(d) == d || !within(root, d) {
			return "npm"
		}
	}
}

// within reports whether p is base or below it (both clean, absolute).
func within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && filepath.IsLocal(rel)
}

// lockFiles name the package manager that writes each lock file, in the
// order they are looked for.
var lockFiles = []struct{ file, pm string }{{"pnpm-lock.yaml", "pnpm"}, {"yarn.lock", "yarn"}, {"package-lock.json", "npm"}}

// AddCommand is the command that installs pkg (or several, with flags)
// with pm.
func AddCommand(pm, pkg string) string {
	if pm == "npm" {
		return "npm install " + pkg
	}
	return pm + " add " + pkg
}

// compilerPackages says which packages each npm compiler needs, by the
// compiler's name in the Node helper.
var compilerPackages = map[string]string{
	"vue":       "vue",
	"svelte":    "svelte",
	"solid":     "babel-preset-solid @babel/core",
	"refresh":   "react-refresh @babel/core",
	"tailwind":  "tailwindcss @tailwindcss/node @tailwindcss/oxide",
	"tailwind3": "tailwindcss@3 postcss",
	"postcss":   "postcss",
}

// CompilerPackages is what to install for compiler op, given the package
// the Node helper found missing ("" when it is Node that is missing): the
// compiler's own packages, or the missing one when it is not among them (a
// Tailwind @plugin or a PostCSS plugin).
func CompilerPackages(op, missing string) string {
	hint := compilerPackages[op]
	if missing != "" && !strings.Contains(" "+hint+" ", " "+missing+" ") && !strings.HasPrefix(hint, missing+"@") {
		return missing
	}
	return hint
}

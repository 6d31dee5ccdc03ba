package jscompile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// pnpmPackage lays out package name@1 the way pnpm does: its files in
// node_modules/.pnpm/<name>@1/node_modules/<name>, and each of deps linked
// beside it (where only it sees them). It returns the package's folder.
func pnpmPackage(t *testing.T, root, name string, deps ...string) string {
	t.Helper()
	store := filepath.Join(root, "node_modules", ".pnpm", strings.ReplaceAll(name, "/", "+")+"@1", "node_modules")
	dir := filepath.Join(store, filepath.FromSlash(name))
	files := map[string]string{
		"package.json": `{"name": "` + name + `", "version": "1.0.0", "main": "index.js", "exports": {".": "./index.js", "./compiler": "./compiler.js", "./compiler-sfc": "./compiler.js"}}`,
		"index.js":     "module.exports = {};\n",
		"compiler.js":  "module.exports = {};\n",
	}
	for f, content := range files {
		testfiles.WriteFile(t, filepath.Join(dir, f), content)
	}
	for _, dep := range deps {
		link := filepath.Join(store, filepath.FromSlash(dep))
		target := filepath.Join(root, "node_modules", ".pnpm", strings.ReplaceAll(dep, "/", "+")+"@1", "node_modules", filepath.FromSlash(dep))
		symlink(t, target, link)
	}
	return dir
}

// topLevel links package name at the top of root's node_modules, as pnpm
// does for what package.json lists.
func topLevel(t *testing.T, root, name string) {
	t.Helper()
	target := filepath.Join(root, "node_modules", ".pnpm", strings.ReplaceAll(name, "/", "+")+"@1", "node_modules", filepath.FromSlash(name))
	symlink(t, target, filepath.Join(root, "node_modules", filepath.FromSlash(name)))
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(link), target)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rel, link); err != nil {
		t.Fatal(err)
	}
}

// TestResolveThroughPluginPackages lays out pnpm projects (real folders and
// symlinks) in which a compiler is installed only as a dependency of the
// plugin the project lists, and checks that the helper finds it where the
// plugin would, and reports it missing when no plugin brings it.
func TestResolveThroughPluginPackages(t *testing.T) {
	h := testHelper(t) // one Node process; every case has its own project
	for _, tc := range []struct {
		name     string
		spec     string              // what the helper loads
		top      []string            // packages at the top of node_modules
		packages map[string][]string // every package in the store → its dependencies
		want     string              // the package whose file it resolves to; "" = missing
	}{
		{"tailwind node through @tailwindcss/vite", "@tailwindcss/node", []string{"tailwindcss", "@tailwindcss/vite"},
			map[string][]string{"tailwindcss": nil, "@tailwindcss/vite": {"@tailwindcss/node", "@tailwindcss/oxide", "tailwindcss"}, "@tailwindcss/node": nil, "@tailwindcss/oxide": nil}, "@tailwindcss/node"},
		{"tailwind oxide through @tailwindcss/postcss", "@tailwindcss/oxide", []string{"@tailwindcss/postcss"},
			map[string][]string{"@tailwindcss/postcss": {"@tailwindcss/oxide", "postcss"}, "@tailwindcss/oxide": nil, "postcss": nil}, "@tailwindcss/oxide"},
		{"postcss through the vite that @tailwindcss/vite sees", "postcss", []string{"@tailwindcss/vite"},
			map[string][]string{"@tailwindcss/vite": {"vite"}, "vite": {"postcss"}, "postcss": nil}, "postcss"},
		{"vue's compiler through vue", "@vue/compiler-sfc", []string{"vue"},
			map[string][]string{"vue": {"@vue/compiler-sfc"}, "@vue/compiler-sfc": nil}, "@vue/compiler-sfc"},
		{"vue/compiler-sfc through @vitejs/plugin-vue's peer", "vue/compiler-sfc", []string{"@vitejs/plugin-vue"},
			map[string][]string{"@vitejs/plugin-vue": {"vue"}, "vue": nil}, "vue"},
		{"svelte/compiler through @sveltejs/vite-plugin-svelte's peer", "svelte/compiler", []string{"@sveltejs/vite-plugin-svelte"},
			map[string][]string{"@sveltejs/vite-plugin-svelte": {"svelte"}, "svelte": nil}, "svelte"},
		{"babel through vite-plugin-solid", "@babel/core", []string{"vite-plugin-solid"},
			map[string][]string{"vite-plugin-solid": {"@babel/core", "babel-preset-solid"}, "@babel/core": nil, "babel-preset-solid": nil}, "@babel/core"},
		{"solid's preset through vite-plugin-solid", "babel-preset-solid", []string{"vite-plugin-solid"},
			map[string][]string{"vite-plugin-solid": {"@babel/core", "babel-preset-solid"}, "@babel/core": nil, "babel-preset-solid": nil}, "babel-preset-solid"},
		{"directly at the top", "@tailwindcss/node", []string{"@tailwindcss/node"},
			map[string][]string{"@tailwindcss/node": nil}, "@tailwindcss/node"},
		{"a package no plugin brings is missing", "@tailwindcss/node", []string{"tailwindcss", "left-pad"},
			map[string][]string{"tailwindcss": nil, "left-pad": {"@tailwindcss/node"}, "@tailwindcss/node": nil}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dirs := map[string]string{}
			for name, deps := range tc.packages {
				dirs[name] = pnpmPackage(t, root, name, deps...)
			}
			for _, name := range tc.top {
				topLevel(t, root, name)
			}
			widget := filepath.Join(root, "widgets", "w")
			if err := os.MkdirAll(widget, 0o755); err != nil {
				t.Fatal(err)
			}
			var out struct {
				File string `json:"file"`
			}
			err := h.Call(context.Background(), "resolve", map[string]string{"spec": tc.spec, "dir": widget}, &out)
			if tc.want == "" {
				var mp *MissingPackageError
				if !errors.As(err, &mp) || mp.Package != tc.spec {
					t.Fatalf("resolve %s = %q, %v; want a missing package %s", tc.spec, out.File, err, tc.spec)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantDir, err := filepath.EvalSymlinks(dirs[tc.want])
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Dir(out.File) != wantDir {
				t.Errorf("resolve %s = %s, want a file of %s", tc.spec, out.File, wantDir)
			}
		})
	}
}

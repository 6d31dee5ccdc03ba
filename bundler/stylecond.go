package bundler

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/specifier"
)

// setupStyleCondition resolves a CSS @import of an npm package ("@import
// "some-pkg"", "@import "tailwindcss"") through the package's "style" export
// condition, or its "style" field, as Vite does. JS imports keep esbuild's
// conditions; a package without a style entry falls through to esbuild.
func setupStyleCondition(pb api.PluginBuild) {
	pb.OnResolve(api.OnResolveOptions{Filter: `^[^./~#][^:]*$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		if a.Kind != api.ResolveCSSImportRule || a.ResolveDir == "" || needsCompiler(a.Path) {
			return api.OnResolveResult{}, nil
		}
		if file := resolveStyle(a.ResolveDir, a.Path); file != "" {
			return api.OnResolveResult{Path: file}, nil
		}
		return api.OnResolveResult{}, nil
	})
}

// resolveStyle finds spec's stylesheet from the node_modules folders above
// dir: the "style" condition of its package.json "exports" for the subpath,
// else (for the package itself) its "style" field. "" when there is none.
func resolveStyle(dir, spec string) string {
	name, sub := specifier.SplitPackage(spec)
	for d := dir; ; d = filepath.Dir(d) {
		pkgDir := filepath.Join(d, "node_modules", filepath.FromSlash(name))
		if data, err := readBounded(filepath.Join(pkgDir, "package.json")); err == nil {
			return styleEntry(pkgDir, data, sub)
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// styleEntry picks the stylesheet for sub from a package.json.
func styleEntry(pkgDir string, data []byte, sub string) string {
	var pkg struct {
		Exports json.RawMessage `json:"exports"`
		Style   string          `json:"style"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	var target string
	if len(pkg.Exports) > 0 {
		var exports any
		if json.Unmarshal(pkg.Exports, &exports) != nil {
			return ""
		}
		if m, ok := exports.(map[string]any); ok && hasSubpathKeys(m) {
			exports = m[sub]
		} else if sub != "." {
			exports = nil
		}
		target = styleCondition(exports)
	}
	if target == "" && sub == "." {
		target = pkg.Style
	}
	if target == "" {
		return ""
	}
	file := filepath.Join(pkgDir, filepath.FromSlash(target))
	if !within(pkgDir, file) {
		return ""
	}
	if st, err := os.Stat(file); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return file
}

func hasSubpathKeys(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, ".") {
			return true
		}
	}
	return false
}

// styleCondition walks a conditional exports value and returns the path
// under a "style" condition (nested conditions allowed), or "".
func styleCondition(v any) string {
	switch t := v.(type) {
	case map[string]any:
		if s, ok := t["style"]; ok {
			if p, ok := s.(string); ok {
				return p
			}
			if p := styleCondition(s); p != "" {
				return p
			}
		}
		for _, k := range []string{"browser", "import", "default"} {
			if sub, ok := t[k].(map[string]any); ok {
				if p := styleCondition(sub); p != "" {
					return p
				}
			}
		}
	case []any:
		for _, e := range t {
			if p := styleCondition(e); p != "" {
				return p
			}
		}
	}
	return ""
}

// needsCompiler reports whether a stylesheet package is source for a CSS
// compiler rather than CSS: Tailwind v4's "style" entry is full of @theme
// and @tailwind rules that only Tailwind's compiler turns into CSS, so
// bundling it as it is would ship an unstyled widget without a word.
func needsCompiler(spec string) bool {
	name, _ := specifier.SplitPackage(spec)
	return name == "tailwindcss" || strings.HasPrefix(name, "@tailwindcss/")
}

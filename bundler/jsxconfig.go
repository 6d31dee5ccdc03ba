package bundler

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// jsxConfig is the JSX part of the tsconfig.json or jsconfig.json nearest to
// a folder, the file esbuild itself would use there.
type jsxConfig struct {
	// solid: the JSX is Solid's and needs babel-preset-solid
	// (jsxImportSource "solid-js", or jsx "preserve" in a package that
	// depends on solid-js).
	solid bool
	// otherRuntime: jsxImportSource names a runtime other than React's
	// (Preact, Solid), whose components React Refresh cannot update.
	otherRuntime bool
}

// maxExtends bounds a chain of tsconfig "extends".
const maxExtends = 8

// jsxConfig returns (and caches for the build) the JSX settings for dir.
func (c *compilers) jsxConfig(dir string) *jsxConfig {
	c.mu.Lock()
	cfg := c.configs[dir]
	c.mu.Unlock()
	if cfg != nil {
		return cfg
	}
	cfg = &jsxConfig{}
	for d := dir; ; d = filepath.Dir(d) {
		file := ""
		for _, n := range []string{"tsconfig.json", "jsconfig.json"} {
			if st, err := os.Stat(filepath.Join(d, n)); err == nil && !st.IsDir() {
				file = filepath.Join(d, n)
				break
			}
		}
		if file != "" {
			jsx, source := readJSXOptions(file, 0)
			cfg.solid = source == "solid-js" || (jsx == "preserve" && source == "" && dependsOn(d, "solid-js"))
			cfg.otherRuntime = source != "" && source != "react"
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	c.mu.Lock()
	if c.configs != nil {
		c.configs[dir] = cfg
	}
	c.mu.Unlock()
	return cfg
}

// readJSXOptions reads compilerOptions.jsx and jsxImportSource from a
// tsconfig, following relative "extends" for what the file leaves unset.
func readJSXOptions(file string, depth int) (jsx, source string) {
	data, err := readBounded(file)
	if err != nil {
		return "", ""
	}
	var tc struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			JSX             string `json:"jsx"`
			JSXImportSource string `json:"jsxImportSource"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(stripJSONC(data), &tc) != nil {
		return "", ""
	}
	jsx, source = strings.ToLower(tc.CompilerOptions.JSX), tc.CompilerOptions.JSXImportSource
	var parent string
	if json.Unmarshal(tc.Extends, &parent) == nil && strings.HasPrefix(parent, ".") && depth < maxExtends {
		p := filepath.Join(filepath.Dir(file), parent)
		if !strings.HasSuffix(p, ".json") {
			p += ".json"
		}
		pj, ps := readJSXOptions(p, depth+1)
		if jsx == "" {
			jsx = pj
		}
		if source == "" {
			source = ps
		}
	}
	return jsx, source
}

// dependsOn reports whether the package.json nearest to dir lists pkg.
func dependsOn(dir, pkg string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := readBounded(filepath.Join(d, "package.json"))
		if err == nil {
			var p struct {
				Dependencies    map[string]string `json:"dependencies"`
				DevDependencies map[string]string `json:"devDependencies"`
			}
			_ = json.Unmarshal(data, &p)
			_, a := p.Dependencies[pkg]
			_, b := p.DevDependencies[pkg]
			return a || b
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// stripJSONC removes // and /* */ comments, then trailing commas (outside
// strings), which tsconfig files may contain.
func stripJSONC(in []byte) []byte {
	return stripJSON(stripJSON(in, true), false)
}

// stripJSON copies in without comments (comments true) or without commas
// that only whitespace separates from a closing } or ] (comments false).
func stripJSON(in []byte, comments bool) []byte {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		ch := in[i]
		switch {
		case ch == '"':
			j := i + 1
			for j < len(in) && in[j] != '"' {
				if in[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(in) {
				return append(out, in[i:]...)
			}
			out = append(out, in[i:j+1]...)
			i = j
		case comments && ch == '/' && i+1 < len(in) && in[i+1] == '/':
			for i+1 < len(in) && in[i+1] != '\n' {
				i++
			}
		case comments && ch == '/' && i+1 < len(in) && in[i+1] == '*':
			end := strings.Index(string(in[i+2:]), "*/")
			if end < 0 {
				return out
			}
			i += end + 3
		case !comments && ch == ',':
			j := i + 1
			for j < len(in) && strings.ContainsRune(" \t\r\n", rune(in[j])) {
				j++
			}
			if j < len(in) && (in[j] == '}' || in[j] == ']') {
				continue
			}
			out = append(out, ch)
		default:
			out = append(out, ch)
		}
	}
	return out
}

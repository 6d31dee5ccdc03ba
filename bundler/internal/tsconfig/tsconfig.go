// Package tsconfig reads what a build needs from tsconfig.json and
// jsconfig.json: the JSX settings of the nearest one (which pick Solid's
// compiler or React Refresh), the files a config "extends", and the JSONC
// those files are written in. It is separate because two parts of the
// build read these files for different reasons, the compilers for JSX and
// the containment for the files esbuild's resolver will open, and neither
// owns the other. It reads nothing itself: callers pass the build's
// bounded reader, so every read stays the contained one.
package tsconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// ReadFunc reads a file the build consults (a tsconfig, a package.json):
// the build passes its bounded reader, which refuses FIFOs and devices.
type ReadFunc func(path string) ([]byte, error)

// JSX is the JSX part of the tsconfig.json or jsconfig.json nearest to a
// folder, the file esbuild itself would use there.
type JSX struct {
	// Solid: the JSX is Solid's and needs babel-preset-solid
	// (jsxImportSource "solid-js", or jsx "preserve" in a package that
	// depends on solid-js).
	Solid bool
	// OtherRuntime: jsxImportSource names a runtime other than React's
	// (Preact, Solid), whose components React Refresh cannot update.
	OtherRuntime bool
}

// MaxExtends bounds a chain of tsconfig "extends".
const MaxExtends = 8

// NearestJSX returns the JSX settings for dir, from the nearest
// tsconfig.json or jsconfig.json in it or above it (zero when none).
func NearestJSX(dir string, read ReadFunc) JSX {
	o, ok := Nearest(dir, read)
	if !ok {
		return JSX{}
	}
	return JSX{Solid: o.Solid(read), OtherRuntime: o.ImportSource != "" && o.ImportSource != "react"}
}

// Options are the JSX compiler options of one config, "extends" followed
// for what it leaves unset.
type Options struct {
	// JSX is compilerOptions.jsx, lower case ("preserve", "react-jsx").
	JSX string
	// ImportSource is compilerOptions.jsxImportSource.
	ImportSource string
	// Dir is the folder of the config they come from.
	Dir string
}

// Nearest returns the JSX options of the tsconfig.json or jsconfig.json
// nearest to dir (the one esbuild uses there), and false when there is
// none up to the file system root.
func Nearest(dir string, read ReadFunc) (Options, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if file := configIn(d); file != "" {
			jsx, source := readJSXOptions(file, 0, read)
			return Options{JSX: jsx, ImportSource: source, Dir: d}, true
		}
		if filepath.Dir(d) == d {
			return Options{}, false
		}
	}
}

// Solid reports whether the JSX is Solid's: jsxImportSource "solid-js", or
// jsx "preserve" with no import source in a package that depends on
// solid-js.
func (o Options) Solid(read ReadFunc) bool {
	return o.ImportSource == "solid-js" || (o.JSX == "preserve" && o.ImportSource == "" && DependsOn(o.Dir, "solid-js", read))
}

// configIn is dir's tsconfig.json, else its jsconfig.json, else "".
func configIn(dir string) string {
	for _, n := range []string{"tsconfig.json", "jsconfig.json"} {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil && !st.IsDir() {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// readJSXOptions reads compilerOptions.jsx and jsxImportSource from a
// tsconfig, following relative "extends" for what the file leaves unset.
func readJSXOptions(file string, depth int, read ReadFunc) (jsx, source string) {
	data, err := read(file)
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
	if json.Unmarshal(StripJSONC(data), &tc) != nil {
		return "", ""
	}
	jsx, source = strings.ToLower(tc.CompilerOptions.JSX), tc.CompilerOptions.JSXImportSource
	var parent string
	if json.Unmarshal(tc.Extends, &parent) == nil && strings.HasPrefix(parent, ".") && depth < MaxExtends {
		p := filepath.Join(filepath.Dir(file), parent)
		if !strings.HasSuffix(p, ".json") {
			p += ".json"
		}
		pj, ps := readJSXOptions(p, depth+1, read)
		if jsx == "" {
			jsx = pj
		}
		if source == "" {
			source = ps
		}
	}
	return jsx, source
}

// DependsOn reports whether the package.json nearest to dir lists pkg.
func DependsOn(dir, pkg string, read ReadFunc) bool {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := read(filepath.Join(d, "package.json"))
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

// StripJSONC removes // and /* */ comments, then trailing commas (outside
// strings), which tsconfig files may contain.
func StripJSONC(in []byte) []byte {
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

// Package viteenv is import.meta.env as Vite builds it: the project's .env
// files for the production mode (.env < .env.local < .env.production <
// .env.production.local, then the process environment), their dotenv syntax
// and expansion, the VITE_ prefix that decides what widget code sees, and
// the esbuild Define entries that make it constant. It is its own package
// because these are Vite's rules, not the bundler's: the bundler only says
// how files are read (its bounded reader) and where the project is.
package viteenv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// viteMode is the mode of a widgetd build, as `vite build`'s default.
const viteMode = "production"

// envPrefix is the prefix of the variables exposed to widget code.
const envPrefix = "VITE_"

// envFiles are Vite's .env files for viteMode, lowest priority first.
var envFiles = []string{".env", ".env.local", ".env." + viteMode, ".env." + viteMode + ".local"}

// Files are the names of the .env files Load reads, lowest priority first.
func Files() []string { return append([]string(nil), envFiles...) }

// Env is what import.meta.env holds in a build: Vite's built-in constants
// and the VITE_* variables of the project's .env files, with variables
// already in the process environment taking precedence, as Vite does.
type Env struct {
	vars map[string]string // VITE_* only
	base string
}

// Load reads dir's .env files through read, which returns a file's bytes,
// nil for a file that does not exist, or an error that fails the build. A
// file that does not parse fails it with file:line, its path shown through
// display.
func Load(dir, base string, environ []string, display displaypath.Base, read func(file string) ([]byte, error)) (*Env, error) {
	raw := map[string]string{} // unexpanded values; later files win
	for _, name := range envFiles {
		file := filepath.Join(dir, name)
		data, err := read(file)
		if err != nil {
			return nil, err
		}
		if data == nil {
			continue
		}
		vars, err := parseDotEnv(display.Show(file), data)
		if err != nil {
			return nil, err
		}
		for k, v := range vars {
			raw[k] = v
		}
	}
	process := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, envPrefix) {
			process[k] = v
		}
	}
	// As dotenv-expand does in Vite: expand over the merged files, with the
	// process environment first; the process's own values stay as they are.
	e := &Env{vars: map[string]string{}, base: base}
	lookup := envLookup(raw, process)
	for k := range raw {
		if strings.HasPrefix(k, envPrefix) {
			e.vars[k] = lookup(k)
		}
	}
	for k, v := range process {
		e.vars[k] = v
	}
	return e, nil
}

// envLookup resolves a variable for expansion: the process environment,
// then the files' values, themselves expanded once each (memoised; a
// variable that refers back to itself expands to "" there).
func envLookup(raw, process map[string]string) func(string) string {
	memo := map[string]string{}
	visiting := map[string]bool{}
	var lookup func(string) string
	lookup = func(k string) string {
		if v, ok := process[k]; ok {
			return v
		}
		if v, ok := memo[k]; ok {
			return v
		}
		v, ok := raw[k]
		if !ok {
			return os.Getenv(k)
		}
		if visiting[k] {
			return ""
		}
		visiting[k] = true
		v = expandEnv(v, lookup)
		visiting[k] = false
		memo[k] = v
		return v
	}
	return lookup
}

// Defines returns the esbuild Define entries for import.meta.env: the whole
// object and each member, so both import.meta.env.VITE_X and
// import.meta.env["VITE_X"]-free code see constants.
func (e *Env) Defines() map[string]string {
	obj := map[string]any{"MODE": viteMode, "DEV": false, "PROD": true, "SSR": false, "BASE_URL": e.base}
	for k, v := range e.vars {
		obj[k] = v
	}
	out := map[string]string{}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := json.Marshal(obj[k])
		out["import.meta.env."+k] = string(v)
	}
	all, _ := json.Marshal(obj) // encoding/json sorts map keys
	out["import.meta.env"] = string(all)
	return out
}

// Key is a stable summary of the env, for the esbuild context and the
// up-to-date check.
func (e *Env) Key() string {
	data, _ := json.Marshal(e.Defines()["import.meta.env"])
	return string(data)
}

// parseDotEnv parses a .env file the way dotenv does: KEY=value lines,
// "export " prefixes, # comments, single, double (with \n escapes) and
// backtick quotes. Values come back unexpanded ($VAR stays), except that a
// single-quoted value's $ is escaped so expansion leaves it literal.
func parseDotEnv(display string, data []byte) (map[string]string, error) {
	out := map[string]string{}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || !envKeyOK(k) {
			return nil, diag.Errorf(display, i+1, 1, "expected KEY=value (KEY of letters, digits, '_' and '.'); got %q", shorten(line, 60))
		}
		v = strings.TrimSpace(v)
		if v != "" && strings.ContainsRune("\"'`", rune(v[0])) {
			q := v[0]
			body := v[1:]
			// A quoted value may span lines.
			for !strings.ContainsRune(body, rune(q)) && i+1 < len(lines) {
				i++
				body += "\n" + lines[i]
			}
			end := strings.IndexByte(body, q)
			if end < 0 {
				return nil, diag.Errorf(display, i+1, 1, "unterminated %c quote in the value of %s", q, k)
			}
			val := body[:end]
			switch q {
			case '"':
				val = strings.ReplaceAll(val, `\n`, "\n")
			case '\'':
				val = strings.ReplaceAll(val, "$", `\$`)
			}
			out[k] = val
			continue
		}
		if j := strings.Index(v, " #"); j >= 0 {
			v = strings.TrimSpace(v[:j])
		}
		out[k] = v
	}
	return out, nil
}

func envKeyOK(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// expandEnv replaces $VAR and ${VAR} (and ${VAR:-default}) with their
// values; \$ stays a literal $.
func expandEnv(s string, lookup func(string) string) string {
	if !strings.ContainsRune(s, '$') {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && s[i+1] == '$' {
			b.WriteByte('$')
			i++
			continue
		}
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		if s[i+1] == '{' {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				b.WriteString(s[i:])
				break
			}
			name, def, hasDef := strings.Cut(s[i+2:i+end], ":-")
			v := lookup(name)
			if v == "" && hasDef {
				v = def
			}
			b.WriteString(v)
			i += end
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		if j == i+1 {
			b.WriteByte('$')
			continue
		}
		b.WriteString(lookup(s[i+1 : j]))
		i = j - 1
	}
	return b.String()
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

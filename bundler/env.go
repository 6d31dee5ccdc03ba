package bundler

import (
	"encoding/json"
	"fmt"
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

// viteEnv is what import.meta.env holds in a build: Vite's built-in
// constants and the VITE_* variables of the project's .env files, with
// variables already in the process environment taking precedence, as Vite
// does.
type viteEnv struct {
	vars map[string]string // VITE_* only
	base string
}

// loadViteEnv reads dir's .env files. A file that does not parse fails the
// build with file:line.
func loadViteEnv(dir, base string, environ []string, display displaypath.Base) (*viteEnv, error) {
	raw := map[string]string{} // unexpanded values; later files win
	for _, name := range envFiles {
		file := filepath.Join(dir, name)
		data, err := readRegular(name, file, maxConfigSize)
		if err == nil && len(data) > maxConfigSize {
			err = fmt.Errorf("over %s; an env file is at most that", formatBytes(maxConfigSize))
		}
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, fmt.Errorf("read %s: %w", display.Show(file), unwrapPathErr(err))
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
	e := &viteEnv{vars: map[string]string{}, base: base}
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

// defines returns the esbuild Define entries for import.meta.env: the whole
// object and each member, so both import.meta.env.VITE_X and
// import.meta.env["VITE_X"]-free code see constants.
func (e *viteEnv) defines() map[string]string {
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

// key is a stable summary of the env, for the esbuild context and the
// up-to-date check.
func (e *viteEnv) key() string {
	data, _ := json.Marshal(e.defines()["import.meta.env"])
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

// envDefines returns the Define entries for the project: process.env.NODE_ENV
// and import.meta.env. loadEnv must have run.
func (b *Builder) envDefines() map[string]string {
	d := map[string]string{"process.env.NODE_ENV": `"production"`}
	if b.reactRefresh {
		d["process.env.NODE_ENV"] = `"development"` // React's refresh hooks (refresh.go)
	}
	if b.env != nil {
		for k, v := range b.env.defines() {
			d[k] = v
		}
	}
	return d
}

// loadEnv (re)reads the project's .env files; it runs once per build.
func (b *Builder) loadEnv() error {
	base := "/"
	if b.publicURL != "" {
		base = b.publicURL + "/"
	}
	e, err := loadViteEnv(b.projectDir(), base, os.Environ(), b.display)
	if err != nil {
		return err
	}
	b.env = e
	return nil
}

// envKey summarises the env for the esbuild context key and the up-to-date
// check; "" before loadEnv.
func (b *Builder) envKey() string {
	if b.env == nil {
		return ""
	}
	return b.env.key()
}

// EnvFiles returns the .env files a build of the project reads, whether or
// not they exist, so a watcher can rebuild when one appears or changes.
func (b *Builder) EnvFiles() []string {
	out := make([]string, len(envFiles))
	for i, name := range envFiles {
		out[i] = filepath.Join(b.projectDir(), name)
	}
	return out
}

package viteenv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// TestViteEnv checks Vite's .env rules: file precedence (.env < .env.local <
// .env.production < .env.production.local < the process environment), the
// VITE_ prefix, quotes, comments and expansion over the merged files.
func TestViteEnv(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".env": "# comment\nVITE_A=from-env\nVITE_B=from-env\nexport VITE_C='single $VITE_A'\nVITE_D=\"double\\nline\"\n" +
			"VITE_E=${VITE_A}-expanded # trailing comment\nSECRET=no\nVITE_F=${MISSING:-fallback}\nVITE_G=\\$literal\n",
		".env.local":                 "VITE_B=from-local\n",
		".env.production":            "VITE_A=from-production\nVITE_H=`back tick`\n",
		".env.production.local":      "VITE_I=prod-local\n",
		".env.development":           "VITE_A=from-development\n",
		"not-an-env-file.production": "VITE_J=no\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := Load(dir, "/", []string{"VITE_B=from-process", "PATH=/bin"}, displaypath.WorkingDir(), readFile)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"VITE_A": "from-production",
		"VITE_B": "from-process",
		"VITE_C": "single $VITE_A",
		"VITE_D": "double\nline",
		"VITE_E": "from-production-expanded",
		"VITE_F": "fallback",
		"VITE_G": "$literal",
		"VITE_H": "back tick",
		"VITE_I": "prod-local",
	}
	for k, v := range want {
		if e.vars[k] != v {
			t.Errorf("%s = %q, want %q", k, e.vars[k], v)
		}
	}
	if len(e.vars) != len(want) {
		t.Errorf("vars = %v, want only %v", e.vars, want)
	}
	d := e.Defines()
	for k, v := range map[string]string{"import.meta.env.MODE": `"production"`, "import.meta.env.DEV": "false",
		"import.meta.env.PROD": "true", "import.meta.env.SSR": "false", "import.meta.env.BASE_URL": `"/"`} {
		if d[k] != v {
			t.Errorf("define %s = %s, want %s", k, d[k], v)
		}
	}
	if strings.Contains(d["import.meta.env"], "SECRET") || !strings.Contains(d["import.meta.env"], `"VITE_I":"prod-local"`) {
		t.Errorf("import.meta.env = %s", d["import.meta.env"])
	}
}

// readFile is a Load reader over the real files: nil for an absent one.
func readFile(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// TestLoadReadErrors: a read error fails Load as the reader worded it, and
// an empty file is read as one with no variables.
func TestLoadReadErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Load(dir, "/", nil, displaypath.WorkingDir(), readFile)
	if err != nil || len(e.vars) != 0 {
		t.Fatalf("empty .env: vars %v, err %v", e, err)
	}
	refused := errors.New("read .env.local: refused")
	_, err = Load(dir, "/", nil, displaypath.WorkingDir(), func(file string) ([]byte, error) {
		if filepath.Base(file) == ".env.local" {
			return nil, refused
		}
		return readFile(file)
	})
	if !errors.Is(err, refused) {
		t.Fatalf("err = %v, want the reader's", err)
	}
}

func TestViteEnvErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"VITE_A=1\nnot a line\n", ".env:2:1: error: expected KEY=value"},
		{"VITE_A=\"open\n", ".env:2:1: error: unterminated \" quote in the value of VITE_A"},
		{"=value\n", ".env:1:1: error: expected KEY=value"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(dir, "/", nil, displaypath.WorkingDir(), readFile)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.body, err, tc.want)
		}
	}
}

// FuzzParseDotEnv: any input parses or fails with a diagnostic, never
// panics, and expansion terminates.
func FuzzParseDotEnv(f *testing.F) {
	for _, s := range []string{"A=1", "export B='x'", "C=\"a\nb\"", "D=${D}${D}", "E=$", "F=${", "#x\n\nG = `y` # z", "H=${I:-${J}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vars, err := parseDotEnv(".env", []byte(s))
		if err != nil {
			if diag.FromError(err) == nil {
				t.Fatalf("error without a diagnostic: %v", err)
			}
			return
		}
		lookup := envLookup(vars, nil)
		for k := range vars {
			lookup(k)
		}
	})
}

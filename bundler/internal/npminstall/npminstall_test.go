package npminstall

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// project writes files (slash path → content) under a new folder.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	testfiles.Write(t, root, files)
	return root
}

// TestPackageManager: the lock file in the package's folder or one above
// it up to the project root decides, then package.json's packageManager;
// nothing above the root counts, and npm is the default.
func TestPackageManager(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"nothing", map[string]string{"w/package.json": `{}`}, "npm"},
		{"pnpm lock", map[string]string{"w/package.json": `{}`, "w/pnpm-lock.yaml": ""}, "pnpm"},
		{"yarn lock above (workspace)", map[string]string{"w/package.json": `{}`, "yarn.lock": ""}, "yarn"},
		{"npm lock beats packageManager", map[string]string{"w/package.json": `{"packageManager": "pnpm@9.1.0"}`, "w/package-lock.json": "{}"}, "npm"},
		{"pnpm lock beats yarn lock", map[string]string{"w/package.json": `{}`, "w/pnpm-lock.yaml": "", "w/yarn.lock": ""}, "pnpm"},
		{"packageManager field", map[string]string{"w/package.json": `{"packageManager": "yarn@4.0.0"}`}, "yarn"},
		{"packageManager field above", map[string]string{"w/package.json": `{}`, "package.json": `{"packageManager": "pnpm@9"}`}, "pnpm"},
		{"unknown packageManager", map[string]string{"w/package.json": `{"packageManager": "bun@1.1"}`}, "npm"},
		{"package.json not JSON", map[string]string{"w/package.json": `{`}, "npm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t, tc.files)
			if got := PackageManager(filepath.Join(root, "w"), root); got != tc.want {
				t.Errorf("PackageManager = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("lock above the root", func(t *testing.T) {
		outer := project(t, map[string]string{"yarn.lock": "", "p/w/package.json": `{}`})
		root := filepath.Join(outer, "p")
		if got := PackageManager(filepath.Join(root, "w"), root); got != "npm" {
			t.Errorf("PackageManager = %q, want npm: a lock file above the project root is another project's", got)
		}
	})
}

// TestAddCommand: npm installs, pnpm and yarn add.
func TestAddCommand(t *testing.T) {
	for pm, want := range map[string]string{"npm": "npm install -D vue", "pnpm": "pnpm add -D vue", "yarn": "yarn add -D vue"} {
		if got := AddCommand(pm, "-D vue"); got != want {
			t.Errorf("AddCommand(%q) = %q, want %q", pm, got, want)
		}
	}
}

// TestDeclared: a package listed in any dependency field and absent from
// node_modules is an install not run; one installed, one not listed, or a
// package.json that is missing, not JSON or not a regular file is not.
func TestDeclared(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		pkg   string
		want  bool
	}{
		{"dependency not installed", map[string]string{"package.json": `{"dependencies": {"react": "19"}}`}, "react", true},
		{"devDependency not installed", map[string]string{"package.json": `{"devDependencies": {"vue": "3"}}`}, "vue", true},
		{"peerDependency not installed", map[string]string{"package.json": `{"peerDependencies": {"vue": "3"}}`}, "vue", true},
		{"optionalDependency not installed", map[string]string{"package.json": `{"optionalDependencies": {"vue": "3"}}`}, "vue", true},
		{"scoped, not installed", map[string]string{"package.json": `{"dependencies": {"@scope/x": "1"}}`}, "@scope/x", true},
		{"installed", map[string]string{"package.json": `{"dependencies": {"react": "19"}}`, "node_modules/react/package.json": `{}`}, "react", false},
		{"scoped, installed", map[string]string{"package.json": `{"dependencies": {"@scope/x": "1"}}`, "node_modules/@scope/x/package.json": `{}`}, "@scope/x", false},
		{"not listed", map[string]string{"package.json": `{"dependencies": {"react": "19"}}`}, "left-pad", false},
		{"no package.json", map[string]string{"a.txt": ""}, "react", false},
		{"package.json not JSON", map[string]string{"package.json": `{"dependencies": `}, "react", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Declared(project(t, tc.files), tc.pkg); got != tc.want {
				t.Errorf("Declared(%q) = %v, want %v", tc.pkg, got, tc.want)
			}
		})
	}
	t.Run("package.json a FIFO", func(t *testing.T) {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, "package.json"), 0o644); err != nil {
			t.Fatal(err)
		}
		if Declared(dir, "react") || PackageManager(dir, dir) != "npm" {
			t.Error("a FIFO named package.json was read as one")
		}
	})
}

// TestCompilerPackages: a compiler's own packages, unless the one missing
// is another (a plugin), which is then the one to install.
func TestCompilerPackages(t *testing.T) {
	for _, tc := range []struct{ op, missing, want string }{
		{"vue", "", "vue"},
		{"solid", "", "babel-preset-solid @babel/core"},
		{"tailwind", "@tailwindcss/oxide", "tailwindcss @tailwindcss/node @tailwindcss/oxide"},
		{"tailwind3", "tailwindcss", "tailwindcss@3 postcss"},
		{"tailwind", "@tailwindcss/typography", "@tailwindcss/typography"},
		{"postcss", "autoprefixer", "autoprefixer"},
		{"refresh", "react-refresh", "react-refresh @babel/core"},
	} {
		if got := CompilerPackages(tc.op, tc.missing); got != tc.want {
			t.Errorf("CompilerPackages(%q, %q) = %q, want %q", tc.op, tc.missing, got, tc.want)
		}
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/scaffold"
)

func runOK(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("widgetd %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// runCommand runs a command in dir with env added, fails the test when it
// fails, and returns its combined output.
func runCommand(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// npmInstall installs a scaffolded project's npm packages (preferring the
// npm cache, so repeated runs need no network).
func npmInstall(t *testing.T, dir string) {
	t.Helper()
	runCommand(t, dir, nil, "npm", "install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
}

// builtCSS is what a template's build must contain, proof that its compiler
// ran: Tailwind generated the utilities the component uses (esbuild alone
// would only inline tailwindcss's own stylesheet), Vue scoped the
// component's style, Svelte scoped it with its class hash.
var builtCSS = map[string][]*regexp.Regexp{
	"react-tailwind": {
		regexp.MustCompile(`\.bg-brand\{background-color:var\(--color-brand\)\}`),
		regexp.MustCompile(`\.text-2xl\{font-size:var\(--text-2xl\)`),
	},
	"vue":    {regexp.MustCompile(`\.greeting\[data-v-[0-9a-f]{8}\]\{`)},
	"svelte": {regexp.MustCompile(`\.greeting\.svelte-[a-z0-9]+\{`)},
}

// checkBuiltCSS reads the first widget's built page in dist.
func checkBuiltCSS(t *testing.T, dir, tmpl string) {
	t.Helper()
	want, ok := builtCSS[tmpl]
	if !ok {
		return
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "dist", scaffold.DefaultWidget+".*.html"))
	if len(pages) != 1 {
		t.Fatalf("dist has %d pages of %s: %v", len(pages), scaffold.DefaultWidget, pages)
	}
	page, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range want {
		if !re.Match(page) {
			t.Errorf("%s: the built page lacks %s (did the template's compiler run?)", pages[0], re)
		}
	}
}

// TestInitTemplates: every template, from an empty folder, as a user runs
// it: widgetd init, npm install when the template needs packages, build,
// check --strict, then widgetd test (baselines written) and again
// (compared). It logs the time from init to the first passing test. The
// templates run in parallel (most of each is npm install and Chromium).
func TestInitTemplates(t *testing.T) {
	for _, tmpl := range scaffold.Templates {
		t.Run(tmpl.Name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "my-app")
			start := time.Now()
			out := runOK(t, "init", dir, "--template", tmpl.Name)
			if _, err := os.Stat(filepath.Join(dir, "widgets", "package.json")); (err == nil) != tmpl.NPM {
				t.Errorf("package.json written: %v, template needs npm: %v", err == nil, tmpl.NPM)
			}
			if tmpl.NPM != strings.Contains(out, "npm install") {
				t.Errorf("init output does not say whether to run npm install:\n%s", out)
			}
			if tmpl.NPM {
				npmInstall(t, filepath.Join(dir, "widgets"))
			}
			runOK(t, "test", "--root", dir)
			t.Logf("%s: widgetd init to a passing widgetd test in %.1fs", tmpl.Name, time.Since(start).Seconds())
			runOK(t, "build", "--root", dir, "--no-cache")
			checkBuiltCSS(t, dir, tmpl.Name)
			runOK(t, "check", "--root", dir, "--strict")
			if tmpl.NPM {
				runOK(t, "check", "--root", dir, "--types") // the template's own tsc, strict
			} else if code, _, errs := runCLI(t, "check", "--root", dir, "--types"); code != exitError || !strings.Contains(errs, "npm install --save-dev typescript") {
				t.Errorf("check --types without TypeScript: exit %d, %s", code, errs)
			}
			if out := runOK(t, "test", "--root", dir); strings.Contains(out, "baseline written") || !strings.Contains(out, "2 passed, 0 failed") {
				t.Errorf("second widgetd test:\n%s", out)
			}

			// widgetd new adds a second widget from the same template; the
			// project still builds and tests.
			runOK(t, "new", "second", "--template", tmpl.Name, "--widgets", filepath.Join(dir, "widgets"))
			if out := runOK(t, "test", "--root", dir); !strings.Contains(out, "4 passed, 0 failed") {
				t.Errorf("widgetd test after widgetd new:\n%s", out)
			}
		})
	}
}

// TestInitRefusesToOverwrite: a second init into the same folder writes
// nothing and says which file is in the way; bad names are usage errors.
func TestInitRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	runOK(t, "init", dir)
	hello := filepath.Join(dir, "widgets", "hello", "index.ts")
	if err := os.WriteFile(hello, []byte("// mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "init", dir, "--template", "react")
	if code != exitError || !strings.Contains(errs, "already exists; nothing was written") {
		t.Errorf("second init: exit %d, %s", code, errs)
	}
	if data, _ := os.ReadFile(hello); string(data) != "// mine\n" {
		t.Error("init overwrote a file")
	}
	if _, err := os.Stat(filepath.Join(dir, "widgets", "package.json")); err == nil {
		t.Error("a refused init wrote package.json")
	}
	for _, args := range [][]string{
		{"init", t.TempDir(), "--widget", "Bad Name"},
		{"init", t.TempDir(), "--template", "angular"},
		{"new", "x", "--widgets", filepath.Join(dir, "nope")},
	} {
		if code, _, _ := runCLI(t, args...); code != exitError {
			t.Errorf("widgetd %v: exit %d, want %d", args, code, exitError)
		}
	}
	if code, _, _ := runCLI(t, "new"); code != exitUsage {
		t.Errorf("widgetd new without a name: exit %d", code)
	}
}

// TestInitGoServer: the Go server template from an empty folder, as a team
// gets it: init builds dist/ (the .gitignore does not ignore it), the
// project is committed with real git and cloned to another folder, and the
// clone builds, vets and passes the server's own test (the official go-sdk
// client over HTTP) with no go generate step. Then go generate in the clone
// (go tool widgetd build) leaves the committed dist/ byte for byte as it was
// (path-independent and fresh, what CI checks), check --strict passes and
// the widget renders under both hosts.
func TestInitGoServer(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "greeter")
	out := runOK(t, "init", dir, "--server", "go", "--replace", repo, "--module", "example.com/greeter")
	for _, want := range []string{"go generate rebuilds it", "terminal 1: the MCP server", "go tool widgetd dev --mcp"} {
		if !strings.Contains(out, want) {
			t.Errorf("init output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "& go run") {
		t.Errorf("init output backgrounds a command:\n%s", out)
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	for _, want := range []string{"tool github.com/widgetd/widgetd/cmd/widgetd", "replace github.com/widgetd/widgetd => " + repo} {
		if !strings.Contains(string(gomod), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, gomod)
		}
	}
	if out, err := exec.Command("gofmt", "-l", dir).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("generated Go is not gofmt-clean: %s %v", out, err)
	}
	env := []string{"GOFLAGS=-mod=mod"}
	runCommand(t, dir, env, "go", "mod", "tidy")
	gitCommitAll(t, dir)
	if tracked := gitOutput(t, dir, "ls-files", "dist"); !strings.Contains(tracked, "dist/manifest.json") {
		t.Fatalf("dist/ is not committed; git ls-files dist: %q", tracked)
	}

	clone := filepath.Join(t.TempDir(), "clone")
	runCommand(t, "", nil, "git", "clone", "--quiet", dir, clone)
	runCommand(t, clone, env, "go", "build", "./...") // writes ./greeter, which .gitignore ignores
	runCommand(t, clone, env, "go", "vet", "./...")
	runCommand(t, clone, env, "go", "test", "-count=1", "./...")
	// The server's TestWidgets (widgettest.Run) rendered the widget under
	// both hosts and wrote the missing screenshot baselines, for the user
	// to commit; nothing else changed.
	shots := "?? widgets/hello/fixtures/screenshots/"
	if written := gitOutput(t, clone, "status", "--porcelain", "--untracked-files=all"); written != shots+"default.chatgpt.png\n"+shots+"default.mcp.png" {
		t.Errorf("go test in a fresh clone: git status\n%s\nwant the two baselines TestWidgets writes", written)
	}
	gitCommitAll(t, clone)
	runCommand(t, clone, env, "go", "generate", "./...")
	if changed := gitOutput(t, clone, "status", "--porcelain"); changed != "" {
		t.Errorf("go generate in a fresh clone changed the committed files:\n%s", changed)
	}
	runOK(t, "check", "--dist", filepath.Join(clone, "dist"), "--strict")
	runOK(t, "test", "--root", clone, "--no-screenshots")

	// The server serves its tool list to types --from (gosdk.ServeTypes),
	// built in its own module, which requires widgetd through a replace.
	t.Chdir(clone)
	t.Setenv("GOFLAGS", "-mod=mod")
	runOK(t, "types", "--from", ".")
	generated, _ := filepath.Glob(filepath.Join("widgets", "*", "tools.gen.d.ts"))
	if len(generated) != 1 {
		t.Fatalf("types --from . wrote %v, want the widget's tools.gen.d.ts", generated)
	}
	if data, _ := os.ReadFile(generated[0]); !strings.Contains(string(data), "who to greet") || !strings.Contains(string(data), "--from example.com/greeter") {
		t.Errorf("%s lacks the tool's input description or its source:\n%s", generated[0], data)
	}
}

// gitCommitAll makes dir a git repository with everything not ignored in one
// commit.
func gitCommitAll(t *testing.T, dir string) {
	t.Helper()
	runCommand(t, dir, nil, "git", "init", "--quiet")
	runCommand(t, dir, nil, "git", "add", "-A")
	runCommand(t, dir, nil, "git", "-c", "user.name=widgetd test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false",
		"commit", "--quiet", "-m", "init")
}

// gitOutput runs git in dir and returns its trimmed output.
func gitOutput(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestInitGoServerIntoProject: init --server go in an existing widgets
// project adds the server: the project's own widget and files are kept as
// they are, the server's tool shows that widget, .gitignore keeps its lines
// and gets the ones the server needs (dist/ taken back, so git commits it),
// and the server builds and passes its test. A second run refuses, writing
// nothing, because go.mod exists.
func TestInitGoServerIntoProject(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "shop")
	runOK(t, "init", dir, "--widget", "cart")
	index := filepath.Join(dir, "widgets", "cart", "index.ts")
	mine := "// mine\nimport \"./style.css\";\ndocument.body.textContent = \"cart\";\n"
	ignore := filepath.Join(dir, ".gitignore")
	// The fixture follows the project's own widget: the server's
	// TestWidgets renders it and checks what it expects.
	fixture := filepath.Join(dir, "widgets", "cart", "fixtures", "default.json")
	for file, content := range map[string]string{index: mine, ignore: "/dist/\n/secrets.env", fixture: `{"expect":{"text":["cart"]}}`} {
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := runOK(t, "init", dir, "--server", "go", "--replace", repo)
	for _, want := range []string{"main.go", ".gitignore (lines added)", "widgets/tsconfig.json (exists, kept as it is)", `tool shows widget "cart"`} {
		if !strings.Contains(out, want) {
			t.Errorf("init output lacks %q:\n%s", want, out)
		}
	}
	if data, _ := os.ReadFile(index); string(data) != mine {
		t.Errorf("init overwrote %s:\n%s", index, data)
	}
	if _, err := os.Stat(filepath.Join(dir, "widgets", "hello")); err == nil {
		t.Error("init added a hello widget to a project that has one")
	}
	if main, _ := os.ReadFile(filepath.Join(dir, "main.go")); !strings.Contains(string(main), `gosdk.AttachWidget(tool, reg, "cart", opts)`) {
		t.Errorf("main.go does not show the project's widget cart:\n%s", main)
	}
	gi, _ := os.ReadFile(ignore)
	if !strings.HasPrefix(string(gi), "/dist/\n/secrets.env\n") || !strings.Contains(string(gi), "\n!/dist/\n") || !strings.Contains(string(gi), "\nnode_modules/\n") {
		t.Errorf(".gitignore after init --server go:\n%s", gi)
	}

	env := []string{"GOFLAGS=-mod=mod"}
	runCommand(t, dir, env, "go", "mod", "tidy")
	gitCommitAll(t, dir)
	if tracked := gitOutput(t, dir, "ls-files", "dist"); !strings.Contains(tracked, "dist/manifest.json") {
		t.Errorf("dist/ is not committed; git ls-files dist: %q", tracked)
	}
	runCommand(t, dir, env, "go", "build", "./...")
	runCommand(t, dir, env, "go", "test", "-count=1", "./...")

	code, _, errs := runCLI(t, "init", dir, "--server", "go", "--replace", repo)
	if code != exitError || !strings.Contains(errs, "go.mod already exists; nothing was written") {
		t.Errorf("second init --server go: exit %d, %s", code, errs)
	}
}

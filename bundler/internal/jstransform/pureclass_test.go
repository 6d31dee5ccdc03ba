package jstransform

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// brandedClasses is a module in the shape the MCP TypeScript SDK ships
// (Rolldown output): classes that brand themselves or hand out accessors in
// static blocks, beside classes whose definition has effects. The bundler's
// tree-shaking test builds the same file.
var brandedClasses = mustRead("testdata/brandedclasses.js")

// mustRead returns the contents of a fixture file; a missing fixture is a
// broken checkout, so it panics at package init.
func mustRead(name string) string {
	data, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(data)
}

func TestPureClasses(t *testing.T) {
	out, changed := PureClasses(brandedClasses, api.LoaderJS)
	if !changed {
		t.Fatal("no class wrapped")
	}
	for _, tc := range []struct {
		name    string
		wrapped bool
	}{
		{"Kept", true}, {"Unused", true}, {"Friend", true},
		{"Effect", false},    // writes a global
		{"FieldCall", false}, // a static field's initializer runs
		{"Computed", false},  // a computed key runs
	} {
		got := strings.Contains(out, "var "+tc.name+" = /* @__PURE__ */ (() => { const "+tc.name+" = class")
		if got != tc.wrapped {
			t.Errorf("class %s wrapped: %v, want %v", tc.name, got, tc.wrapped)
		}
	}
	if strings.Count(out, "\n") != strings.Count(brandedClasses, "\n") {
		t.Errorf("line count changed: %d → %d", strings.Count(brandedClasses, "\n"), strings.Count(out, "\n"))
	}
}

// TestPureClassesAdversarial: text that looks like a branded class, or
// hides braces from a scanner, is either left alone or wrapped whole.
func TestPureClassesAdversarial(t *testing.T) {
	brand := `static { Object.defineProperty(this, "k", { value: "v" }); }`
	for _, tc := range []struct {
		name, src string
		wrapped   []string
	}{
		{"empty", "", nil},
		{"effect in block", "var A = class { static { x(); } };", nil},
		{"unclosed", "let B = class { " + brand + " ", nil},
		{"no static block", "const C = class {};", nil},
		{"in a string", `const s = "var D = class { ` + strings.ReplaceAll(brand, `"`, `'`) + ` }";`, nil},
		{"in a template", "const s = `var E = class { " + brand + " }`;", nil},
		{"in a comment", "/* var F = class { " + brand + " } */\n// var G = class { " + brand + " }", nil},
		{"brace in a regex", "var H = class { " + brand + " m() { return /}/.test(\"{\"); } };", []string{"H"}},
		{"brace in a template", "var I = class { " + brand + " m() { return `}${'{'}`; } };", []string{"I"}},
		{"brace in a comment", "var J = class { " + brand + " /* } */ m() {} // }\n};", []string{"J"}},
		{"division, not a regex", "var K = class { " + brand + " m(a) { return a / 2 / 3; } };", []string{"K"}},
		{"ASI", "var L = class { " + brand + " }\nvar M = class extends L { " + brand + " }\nM.x = 1", []string{"L", "M"}},
		{"member superclass", "var N = class extends a.B { " + brand + " };", nil},
		{"brand of another object", `var O = class { static { Object.defineProperty(globalThis, "k", { value: "v" }); } };`, nil},
		{"brand with a getter", `var P = class { static { Object.defineProperty(this, "k", { get: f }); } };`, nil},
		{"accessor that is not a function", "var Q = class { static { internals.q = run(); } };", nil},
		{"static field", "var R = class { " + brand + " static f = g(); };", nil},
		{"static field without value", "var S = class { " + brand + " static f; };", []string{"S"}},
		{"computed method", "var T = class { " + brand + " [k()]() {} };", nil},
		{"well-known Symbol", "var U = class { " + brand + " static [Symbol.hasInstance](v) { return !!v; } };", []string{"U"}},
		{"two bindings", "var V = class { " + brand + " }, W = 1;", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := PureClasses(tc.src, api.LoaderJS)
			if changed != (len(tc.wrapped) > 0) || !changed && got != tc.src {
				t.Fatalf("PureClasses(%q) = %q, changed %v", tc.src, got, changed)
			}
			for _, name := range tc.wrapped {
				if !strings.Contains(got, name+" = /* @__PURE__ */ (() => { const "+name+" = class") {
					t.Errorf("class %s not wrapped: %q", name, got)
				}
			}
			if strings.Count(got, "\n") != strings.Count(tc.src, "\n") {
				t.Errorf("line count changed: %q", got)
			}
		})
	}
	if got, changed := PureClasses("var A = class { "+brand+" };", api.LoaderTS); changed {
		t.Errorf("TypeScript rewritten: %q", got)
	}
}

// TestPureClassesBehave runs the rewritten module in Node: the classes
// keep their names, brands, static methods and accessors.
func TestPureClassesBehave(t *testing.T) {
	out, _ := PureClasses(brandedClasses, api.LoaderJS)
	out = strings.Replace(out, "export {", "const result = {", 1) + `
const k = new Kept("m"), u = Unused.fromText("t"), f = new Friend();
internals.poke(f, "changed");
console.log([k.name, k.brand, u.name, u.brand, u.message, u instanceof Kept, internals.peek(f), effectRan].join(" "));
`
	want := "Kept BRAND_KEPT Unused BRAND_UNUSED t true changed EFFECT_KEPT"
	if got := nodeOutput(t, out); got != want {
		t.Errorf("rewritten module printed %q, want %q", got, want)
	}
}

// nodeOutput runs module as an ES module in Node.js and returns what it
// printed, trimmed; the test fails when Node is missing or the module throws.
func nodeOutput(t *testing.T, module string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("this test runs the rewritten module in Node.js; install Node.js 20+")
	}
	out, err := exec.Command("node", "--input-type=module", "-e", module).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// FuzzPureClasses: any module text, however malformed, leaves PureClasses
// without a panic, and what it returns keeps the line count and parses
// whenever the input does.
func FuzzPureClasses(f *testing.F) {
	f.Add(brandedClasses)
	f.Add("var A = class { static { Object.defineProperty(this, \"k\", { value: \"}\" }); } m() { return /}/.test(`${'{'}`); } };")
	f.Add("let B = class extends C { static { x.y = (a) => a._z; } [Symbol.iterator]() {} };\n// }")
	f.Fuzz(func(t *testing.T, src string) { checkLineKeepingRewrite(t, src, PureClasses) })
}

// checkLineKeepingRewrite is the fuzz check of a rewrite of JavaScript
// module text (checkLineKeeping). Inputs over 4 kB are skipped to keep
// each run short.
func checkLineKeepingRewrite(t *testing.T, src string, rewrite func(string, api.Loader) (string, bool)) {
	if len(src) > 4096 {
		return
	}
	out, changed := rewrite(src, api.LoaderJS)
	checkLineKeeping(t, src, out, changed)
}

// checkLineKeeping checks what a line-keeping rewrite made of src: an
// input it left alone comes back unchanged, and one it rewrote keeps its
// line count and still parses (esbuild, as JavaScript) if it did. It
// reports whether src was rewritten, for checks of the rewrite itself.
func checkLineKeeping(t *testing.T, src, out string, changed bool) bool {
	t.Helper()
	if !changed {
		if out != src {
			t.Fatalf("unchanged result differs from its input")
		}
		return false
	}
	if strings.Count(out, "\n") != strings.Count(src, "\n") {
		t.Fatalf("line count changed: %q → %q", src, out)
	}
	opts := api.TransformOptions{Loader: api.LoaderJS, Format: api.FormatESModule}
	if r := api.Transform(out, opts); len(r.Errors) > 0 && len(api.Transform(src, opts).Errors) == 0 {
		t.Fatalf("rewritten module does not parse: %q → %q: %s", src, out, r.Errors[0].Text)
	}
	return true
}

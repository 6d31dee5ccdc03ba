package bundler

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// brandedClasses is a module in the shape the MCP TypeScript SDK ships
// (Rolldown output): classes that brand themselves or hand out accessors in
// static blocks, beside classes whose definition has effects.
const brandedClasses = `const internals = {};
var Kept = class extends Error {
	static {
		Object.defineProperty(this, "mcpBrand", { value: "BRAND_KEPT" });
	}
	static [Symbol.hasInstance](value) { return typeof value === "object" && value !== null && "brand" in value; }
	constructor(message) { super(message); this.name = new.target.name; this.brand = new.target.mcpBrand; }
};
var Unused = class Unused extends Kept {
	static {
		Object.defineProperty(this, "mcpBrand", { value: "BRAND_UNUSED" });
	}
	static fromText(text) { return new Unused(` + "`{${text}}`" + `.replace(/[{}]/g, "")); }
};
var Friend = class {
	_secret = "FRIEND_UNUSED";
	static {
		internals.peek = (friend) => friend._secret;
		internals.poke = (friend, value) => { friend._secret = value; };
	}
};
var Effect = class {
	static {
		globalThis.effectRan = "EFFECT_KEPT";
	}
};
var FieldCall = class {
	static {
		Object.defineProperty(this, "mcpBrand", { value: "FIELD_BRAND" });
	}
	static registered = globalThis.register?.("FIELD_KEPT");
};
var Computed = class {
	static {
		Object.defineProperty(this, "mcpBrand", { value: "COMPUTED_BRAND" });
	}
	[globalThis.key ?? "COMPUTED_KEPT"]() {}
};
export { Kept, Unused, Friend, Effect, FieldCall, Computed, internals };
`

func TestPureClasses(t *testing.T) {
	out, changed := pureClasses(brandedClasses, api.LoaderJS)
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
			got, changed := pureClasses(tc.src, api.LoaderJS)
			if changed != (len(tc.wrapped) > 0) || !changed && got != tc.src {
				t.Fatalf("pureClasses(%q) = %q, changed %v", tc.src, got, changed)
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
	if got, changed := pureClasses("var A = class { "+brand+" };", api.LoaderTS); changed {
		t.Errorf("TypeScript rewritten: %q", got)
	}
}

// TestPureClassesBehave runs the rewritten module in Node: the classes
// keep their names, brands, static methods and accessors.
func TestPureClassesBehave(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("this test runs the rewritten module in Node.js; install Node.js 20+")
	}
	out, _ := pureClasses(brandedClasses, api.LoaderJS)
	out = strings.Replace(out, "export {", "const result = {", 1) + `
const k = new Kept("m"), u = Unused.fromText("t"), f = new Friend();
internals.poke(f, "changed");
console.log([k.name, k.brand, u.name, u.brand, u.message, u instanceof Kept, internals.peek(f), effectRan].join(" "));
`
	got, err := exec.Command("node", "--input-type=module", "-e", out).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, got)
	}
	want := "Kept BRAND_KEPT Unused BRAND_UNUSED t true changed EFFECT_KEPT"
	if strings.TrimSpace(string(got)) != want {
		t.Errorf("rewritten module printed %q, want %q", got, want)
	}
}

// TestTreeShakingLikeRolldown builds widgets against packages written the
// way zod and the MCP SDK are, and checks that what Vite 8 drops is dropped
// and what has effects stays.
func TestTreeShakingLikeRolldown(t *testing.T) {
	root := writeProject(t, map[string]string{
		"node_modules/nspkg/package.json":   `{"name": "nspkg", "type": "module", "exports": {".": "./index.js", "./v2": "./v2/index.js"}}`,
		"node_modules/nspkg/index.js":       `import * as n from "./impl.js";` + "\n" + `export * from "./impl.js";` + "\n" + `export { n, n as default };`,
		"node_modules/nspkg/impl.js":        `export function used() { return "NS_USED"; }` + "\n" + `export function unused() { return "NS_UNUSED"; }`,
		"node_modules/nspkg/v2/index.js":    `export * from "../index.js";`,
		"node_modules/brands/package.json":  `{"name": "brands", "type": "module", "main": "index.js"}`,
		"node_modules/brands/index.js":      brandedClasses,
		"widgets/named/widget.json":         widgetJSON("main.ts"),
		"widgets/named/main.ts":             `import { n as ns, type unused } from "nspkg";` + "\n" + `document.body.textContent = ns.used();`,
		"widgets/default/widget.json":       widgetJSON("main.js"),
		"widgets/default/main.js":           `import n from "nspkg";` + "\n" + `document.body.textContent = n.used();`,
		"widgets/chain/widget.json":         widgetJSON("main.js"),
		"widgets/chain/main.js":             `import {` + "\n" + `  n,` + "\n" + `  used,` + "\n" + `} from "nspkg/v2";` + "\n" + `document.body.textContent = n.used() + used();`,
		"widgets/star/widget.json":          widgetJSON("main.js"),
		"widgets/star/lib.js":               `export * as helpers from "./helpers.js";`,
		"widgets/star/helpers.js":           `export function one() { return "NS_USED"; }` + "\n" + `export function two() { return "NS_UNUSED"; }`,
		"widgets/star/main.js":              `import { helpers } from "./lib.js";` + "\n" + `document.body.textContent = helpers.one();`,
		"node_modules/members/package.json": `{"name": "members", "type": "module", "main": "index.js"}`,
		"node_modules/members/core.js":      `export * as util from "./util.js";`,
		"node_modules/members/util.js":      `export function used() { return "NS_USED"; }` + "\n" + `export function unused() { return "NS_UNUSED"; }`,
		"node_modules/members/index.js":     `import * as core from "./core.js";` + "\n" + `export function run() { return core.util.used(); }`,
		"widgets/member/widget.json":        widgetJSON("main.js"),
		"widgets/member/main.js":            `import { run } from "members";` + "\n" + `document.body.textContent = run();`,
		"widgets/classes/widget.json":       widgetJSON("main.js"),
		"widgets/classes/main.js":           `import { Kept } from "brands";` + "\n" + `document.body.textContent = new Kept("m").name;`,
	})
	_, out := assembleOK(t, testOptions(root))
	want := map[string][]string{
		"named": {"NS_USED"}, "default": {"NS_USED"}, "chain": {"NS_USED"}, "star": {"NS_USED"}, "member": {"NS_USED"},
		"classes": {"BRAND_KEPT", "EFFECT_KEPT", "FIELD_KEPT", "COMPUTED_KEPT"},
	}
	dropped := []string{"NS_UNUSED", "BRAND_UNUSED", "FRIEND_UNUSED"}
	for _, w := range out.Manifest.Widgets {
		html := string(out.Files[w.HTML])
		for _, s := range want[w.Name] {
			if !strings.Contains(html, s) {
				t.Errorf("widget %s lacks %s", w.Name, s)
			}
		}
		for _, s := range dropped {
			if strings.Contains(html, s) {
				t.Errorf("widget %s keeps %s, which nothing uses", w.Name, s)
			}
		}
	}
}

// FuzzPureClasses: any module text, however malformed, leaves pureClasses
// without a panic, and what it returns keeps the line count and parses
// whenever the input does.
func FuzzPureClasses(f *testing.F) {
	f.Add(brandedClasses)
	f.Add("var A = class { static { Object.defineProperty(this, \"k\", { value: \"}\" }); } m() { return /}/.test(`${'{'}`); } };")
	f.Add("let B = class extends C { static { x.y = (a) => a._z; } [Symbol.iterator]() {} };\n// }")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		out, changed := pureClasses(src, api.LoaderJS)
		if !changed {
			if out != src {
				t.Fatalf("unchanged result differs from its input")
			}
			return
		}
		if strings.Count(out, "\n") != strings.Count(src, "\n") {
			t.Fatalf("line count changed: %q → %q", src, out)
		}
		opts := api.TransformOptions{Loader: api.LoaderJS, Format: api.FormatESModule}
		if r := api.Transform(out, opts); len(r.Errors) > 0 && len(api.Transform(src, opts).Errors) == 0 {
			t.Fatalf("rewritten module does not parse: %q → %q: %s", src, out, r.Errors[0].Text)
		}
	})
}

package jstransform

import (
	"regexp"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// pureData is a module of top-level data and schemas in the shapes the MCP
// SDK and ext-apps ship, beside declarations with effects; the bundler's
// tree-shaking test builds the same file.
var pureData = mustRead("testdata/puredata.js")

// wrappedNames returns the bindings whose initializer PureInitializers
// wrapped in out.
func wrappedNames(out string) []string {
	var names []string
	for _, m := range regexp.MustCompile(`([\w$]+) ?= ?/\* @__PURE__ \*/ \(\(\) => \(`).FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	return names
}

func TestPureInitializers(t *testing.T) {
	out, changed := PureInitializers(pureData, api.LoaderJS)
	if !changed {
		t.Fatal("nothing wrapped")
	}
	// Later is wrapped (its initializer is pure) but is assigned again,
	// so FromLater, a method of it, is not followed.
	want := "LADDER STATUS LIMITS Base Message Ping Later"
	if got := strings.Join(wrappedNames(out), " "); got != want {
		t.Errorf("wrapped %q, want %q\n%s", got, want, out)
	}
	if strings.Count(out, "\n") != strings.Count(pureData, "\n") {
		t.Errorf("line count changed: %d → %d", strings.Count(pureData, "\n"), strings.Count(out, "\n"))
	}
	if got, changed := PureInitializers(pureData, api.LoaderTS); changed || got != pureData {
		t.Error("TypeScript rewritten")
	}
}

// TestPureInitializersCases: what is wrapped and what is left, one rule at
// a time, including text that hides delimiters from the scan.
func TestPureInitializersCases(t *testing.T) {
	const zod = `import { z } from "zod";` + "\n"
	for _, tc := range []struct {
		name, src string
		wrapped   string
	}{
		{"empty", "", ""},
		{"literal data needs no help", `const a = [1, "x", { b: -2 }];`, ""},
		{"enum member", `let E = {}; const a = [E.A];`, "a"},
		{"computed key", `let E = {}; const a = { [E.A]: 1 };`, "a"},
		{"import member", `import * as ns from "./x.js"; const a = ns.b;`, "a"},
		{"index by literal", `let E = {}; const a = E["A"];`, "a"},
		{"index by name", `let E = {}, k = "A"; const a = E[k];`, ""},
		{"undeclared global", `const a = window.x;`, ""},
		{"built-in namespace alone", `const a = Symbol.iterator;`, ""},
		{"optional read", `let E = {}; const a = E?.A;`, ""},
		{"call", `let E = {}; const a = [E.A, f()];`, ""},
		{"new", `let E = {}; const a = [E.A, new Map()];`, ""},
		{"spread", `let E = {}; const a = { ...E, b: E.A };`, ""},
		{"array spread", `let E = []; const a = [...E, E.A];`, ""},
		{"assignment", `let E = {}, b; const a = (b = E.A);`, ""},
		{"arithmetic", `let E = {}; const a = E.A + 1;`, ""},
		{"strict comparison", `let E = {}; const a = E.A === 1 && E.B;`, "a"},
		{"typeof", `const a = typeof self !== "undefined" && self.location;`, ""},
		{"functions", `let E = {}; const a = { f() { return g(); }, h: () => g(), v: E.A };`, "a"},
		{"tagged template", "let E = {}; const a = tag`${E.A}`;", ""},
		{"template", "let E = {}; const a = `x${E.A}`;", "a"},
		{"await", `let E = {}; const a = [E.A, await E.p];`, ""},
		{"zod chain", zod + `const S = z.object({ a: z.string().min(1) }).optional().describe("s");`, "S"},
		{"zod by name", `import { object, string } from "zod/v4";` + "\n" + `const S = object({ a: string() });`, "S"},
		{"zod namespace", `import * as z from "zod/v4/core";` + "\n" + `const S = z.coerce.number();`, "S"},
		{"zod meta", zod + `const S = z.object({}).meta({ id: "s" });`, ""},
		{"zod register", zod + `const S = z.string().register(r, {});`, ""},
		{"zod parse", zod + `const S = z.string().parse("x");`, ""},
		{"zod with an effect in an argument", zod + `const S = z.object({ a: make() });`, ""},
		{"schema method", zod + `const A = z.object({}), B = A.extend({}).describe("b");`, "A B"},
		{"schema reassigned", zod + `var A = z.object({}); A = x; const B = A.optional();`, "A"},
		{"schema destructured again", zod + `var A = z.object({}); [A] = x; const B = A.optional();`, "A"},
		{"not zod", `import { z } from "zood";` + "\n" + `const S = z.object({});`, ""},
		{"zod shadowed by a local", zod + `const S = ((z) => z.object({}))(other);`, ""},
		{"several declarators", `let E = {}; var a = E.A, b = f(), c = E.C;`, "a c"},
		{"comma in a string", `let E = {}; const a = [E.A, ",;"], b = E.B;`, "a b"},
		{"delimiters in a regex", `let E = {}; const a = [E.A, /[;,)]/], b = E.B;`, "a b"},
		{"delimiters in a template", "let E = {}; const a = [E.A, `;${\",\"}`], b = E.B;", "a b"},
		{"delimiters in a comment", "let E = {}; const a = [E.A /* ; */, // ,\n1], b = E.B;", "a b"},
		{"no semicolon (ASI)", "let E = {}\nconst a = [E.A]\nconst b = E.B\n", ""},
		{"in a function", `let E = {}; function f() { const a = E.A; return a; }`, ""},
		{"export", `let E = {}; export const a = E.A;`, ""},
		{"direct eval reads bindings by name", `let E = {}; const a = E.A; export const get = (n) => eval(n);`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := PureInitializers(tc.src, api.LoaderJS)
			if names := strings.Join(wrappedNames(got), " "); names != tc.wrapped {
				t.Errorf("wrapped %q, want %q: %s", names, tc.wrapped, got)
			}
			if changed != (tc.wrapped != "") || !changed && got != tc.src {
				t.Errorf("changed %v, output %q", changed, got)
			}
			if strings.Count(got, "\n") != strings.Count(tc.src, "\n") {
				t.Errorf("line count changed: %q", got)
			}
		})
	}
}

// TestPureInitializersBehave runs the module as written and as rewritten
// in Node, with a zod stand-in: every binding and every effect is the same.
func TestPureInitializersBehave(t *testing.T) {
	rewritten, _ := PureInitializers(pureData, api.LoaderJS)
	stub := strings.ReplaceAll(mustRead("testdata/zodstub.js"), "export const z", "const z")
	run := func(module string) string {
		t.Helper()
		module = strings.Replace(module, `import { z } from "zod/v4";`, stub, 1)
		module = strings.Replace(module, `import * as codes from "./codes.js";`, `const codes = { TAG: "tag", Code: { Invalid: -32600, Missing: -32601 } };`, 1)
		module = strings.NewReplacer("export function", "function", "globalThis.unknownCall?.", "undefined?.").Replace(module) + `
console.log(JSON.stringify({ LADDER, STATUS, LIMITS: { ...LIMITS, iterate: String(LIMITS.iterate) }, Base, Message, Ping,
	Registered: [...globalThis.zodRegistry.keys()], Effect, effects: globalThis.effects, Unknown, Later, FromLater, Spread, Sum,
	status: [status(-32600), status(1)], parsed: parseMessage("v") }));`
		return nodeOutput(t, module)
	}
	if before, after := run(pureData), run(rewritten); before != after {
		t.Errorf("the rewritten module differs:\nas written: %s\nrewritten:  %s", before, after)
	}
}

// FuzzPureInitializers: any module text, however malformed, leaves
// PureInitializers without a panic; what it returns keeps the line count
// and parses whenever the input does.
func FuzzPureInitializers(f *testing.F) {
	f.Add(pureData)
	f.Add("let E = {}; const a = [E.A, \",;\", /[;,)]/, `;${','}`], b = E.B; // ;\n")
	f.Add("import { z } from \"zod\";\nvar A=z.object({a:z.string()}),B=A.extend({}).describe(\"}\");")
	f.Fuzz(func(t *testing.T, src string) { checkLineKeepingRewrite(t, src, PureInitializers) })
}

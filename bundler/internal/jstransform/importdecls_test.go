package jstransform

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2/js"
)

// describeImports prints what moduleImports located, checking that each
// binding's token is where it says.
func describeImports(t *testing.T, src string, ts bool) []string {
	t.Helper()
	var got []string
	for _, d := range moduleImports(src, ts) {
		if src[d.after-len(d.quoted):d.after] != d.quoted {
			t.Errorf("specifier %s not found at %d", d.quoted, d.after-len(d.quoted))
		}
		for _, b := range d.bindings {
			if src[b.at:b.at+len(b.token)] != b.token {
				t.Errorf("binding token %q not at %d", b.token, b.at)
			}
			got = append(got, fmt.Sprintf("%s:%s>%s", d.spec, b.imported, b.local))
		}
	}
	return got
}

func TestModuleImports(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		ts   bool
		want string
	}{
		{"named", `import { z } from "zod";`, false, "zod:z>z"},
		{"renamed and default", `import d, { z as q, y } from 'zod'`, false, "zod:default>d zod:z>q zod:y>y"},
		{"minified mid-file (Bun)", `var a=1;class K{m(){return a}}import{z as Q}from"zod/v4";import{x}from"y";`, false, "zod/v4:z>Q y:x>x"},
		{"namespace and side effect only", `import * as z from "zod"; import "zod"; import {} from "zod";`, false, ""},
		{"in a string", `const s = "import { z } from 'zod'";`, false, ""},
		{"in a template", "const s = `import { z } from \"zod\"${1}`;", false, ""},
		{"in a comment", "// import { z } from \"zod\"\n/* import { y } from \"zod\" */", false, ""},
		{"in a regex", `const r = /import { z } from "zod"/g;`, false, ""},
		{"regex then import", "let r = /\"/;\nimport { z } from \"zod\";", false, "zod:z>z"},
		{"dynamic import and import.meta", `import("zod").then(m => m.z); console.log(import.meta.url);`, false, ""},
		{"comments inside", "import /* a */ { /* } */ z /* , y */ } /* from \"x\" */ from \"zod\"", false, "zod:z>z"},
		{"string import name", `import { "z" as q } from "zod";`, false, "zod:z>q"},
		{"trailing comma, lines", "import {\n  z,\n  y,\n} from \"zod\"\nz.object()", false, "zod:z>z zod:y>y"},
		{"TypeScript prologue", "import { z } from \"zod\";\nconst n: number = 1!;", true, "zod:z>z"},
		{"TypeScript type-only", "import type { Z } from \"zod\";\nimport { type T, z } from \"zod\";\nimport type D from \"d\";", true, "zod:z>z"},
		{"TypeScript default named type", `import type from "zod";`, true, "zod:default>type"},
		{"TypeScript hashbang and directives", "#!/usr/bin/env node\n\"use client\";\n;import { z } from \"zod\"", true, "zod:z>z"},
		{"TypeScript ASI", "import { z } from \"zod\"\nimport { y } from \"y\"\nz.object()", true, "zod:z>z y:y>y"},
		{"TypeScript prologue ends at code", "const a = 1;\nimport { z } from \"zod\";", true, ""},
		{"TypeScript import equals ends it", "import fs = require(\"fs\");\nimport { z } from \"zod\";", true, ""},
		{"TypeScript attributes end it", "import { z } from \"zod\" with { type: \"json\" };\nimport { y } from \"y\";", true, ""},
		{"TypeScript regex-like comment", "import { z } from \"zod\" // } from \"x\"\nimport { /* y } */ w } from \"w\";", true, "zod:z>z w:w>w"},
		{"TypeScript dynamic import ends it", "import(\"zod\");\nimport { z } from \"zod\";", true, ""},
		{"TypeScript template ends it", "`${1}`;import { z } from \"zod\";", true, ""},
		{"TypeScript two statements on a line", `import { z } from "zod" import { y } from "y";`, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(describeImports(t, tc.src, tc.ts), " "); got != tc.want {
				t.Errorf("moduleImports(%q) = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}

// zodNamespaces answers like NamespaceReexports.names for a package "zod" whose
// entry re-exports z (and default) as a namespace and util as `export *
// as` of /pkg/zod/util.js.
func zodNamespaces(spec string) map[string]string {
	switch spec {
	case "zod", "zod/v4":
		return map[string]string{"z": "", "default": "", "util": "/pkg/zod/util.js", "core": "/pkg/zod/core/index.js"}
	case "./core/index.js":
		return map[string]string{"util": "/app/core/util.js"}
	}
	return nil
}

func TestNamespaceImports(t *testing.T) {
	for _, tc := range []struct {
		name, file, src, want string
	}{
		{"named", "/app/main.js", `import { z } from "zod";`,
			`import { z as __widgetd_unused_z } from "zod";import * as z from "zod";`},
		{"minified, renamed", "/app/m.mjs", `let a=1;import{z as Q}from"zod/v4";Q.object()`,
			`let a=1;import{z as __widgetd_unused_Q}from"zod/v4";import * as Q from "zod/v4";Q.object()`},
		{"default and kept names", "/app/main.js", `import zz, { other, z as q } from 'zod'` + "\nq.string()",
			`import __widgetd_unused_zz, { other, z as __widgetd_unused_q } from 'zod';import * as zz from 'zod';import * as q from 'zod'` + "\nq.string()"},
		{"export * as", "/app/src/main.ts", `import { util } from "zod";` + "\nutil.x();",
			`import { util as __widgetd_unused_util } from "zod";import * as util from "../../pkg/zod/util.js";` + "\nutil.x();"},
		{"unused name taken", "/app/main.js", `import { z } from "zod"; var __widgetd_unused_z = 1;`,
			`import { z as __widgetd_unused_z_ } from "zod";import * as z from "zod"; var __widgetd_unused_z = 1;`},
		{"other packages untouched", "/app/main.js", `import { z } from "zed";`, `import { z } from "zed";`},
		{"only in text", "/app/main.ts", "const s = `import { z } from \"zod\"`;\nconst r = /import { z } from \"zod\"/;", "const s = `import { z } from \"zod\"`;\nconst r = /import { z } from \"zod\"/;"},
		{"member namespace", "/app/main.js", "import * as core from \"./core/index.js\";\nfunction f() { return core.util.a(); }\ncore.util.b;",
			"import * as core from \"./core/index.js\";import * as __widgetd_ns_core_util from \"./core/util.js\";\nfunction f() { return __widgetd_ns_core_util.a(); }\n__widgetd_ns_core_util.b;"},
		{"member namespace through a rewritten import", "/app/main.js", "import { z } from 'zod'; z.core.x();",
			"import { z as __widgetd_unused_z } from 'zod';import * as z from 'zod';import * as __widgetd_ns_z_core from \"../pkg/zod/core/index.js\"; __widgetd_ns_z_core.x();"},
		{"member namespace left alone", "/app/main.js", "import * as core from \"./core/index.js\";\n" +
			"function g(core) { return core.util.c; }\nclass C { m() { const core = 1; return core.util.x; } }\n" +
			"let q = core.util; core?.util.d; core.util?.e; core .util.f; core/**/.util.g; core.util[\"h\"]; core.other.i;\n" +
			"const s = \"core.util.j\"; const t = `${core}.util.k`; // core.util.l",
			"import * as core from \"./core/index.js\";\n" +
				"function g(core) { return core.util.c; }\nclass C { m() { const core = 1; return core.util.x; } }\n" +
				"let q = core.util; core?.util.d; core.util?.e; core .util.f; core/**/.util.g; core.util[\"h\"]; core.other.i;\n" +
				"const s = \"core.util.j\"; const t = `${core}.util.k`; // core.util.l"},
		{"TypeScript ASI", "/app/main.ts", "import { z } from \"zod\"\nz.object({})", "import { z as __widgetd_unused_z } from \"zod\";import * as z from \"zod\"\nz.object({})"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := namespaceImports(tc.file, tc.src, zodNamespaces)
			if got != tc.want || changed != (tc.src != tc.want) {
				t.Errorf("namespaceImports(%q)\n got %q (changed %v)\nwant %q", tc.src, got, changed, tc.want)
			}
		})
	}
}

// bindingLocals lists the local names of d's value bindings.
func bindingLocals(d importDecl) []string {
	var got []string
	for _, b := range d.bindings {
		got = append(got, b.local)
	}
	return got
}

// nonImportStatements prints the top-level statements of a parsed module
// that are not import declarations.
func nonImportStatements(m jsModule) []string {
	var out []string
	for _, stmt := range m.ast.BlockStmt.List {
		if _, ok := stmt.(*js.ImportStmt); !ok {
			out = append(out, stmt.String())
		}
	}
	return out
}

// FuzzNamespaceImports: whatever the text, the rewrite touches nothing but
// import declarations. When the input parses as JavaScript, the output
// parses too (tdewolff and esbuild), keeps its line count, and has the
// same statements other than imports, printed the same; every import it
// adds is a namespace import. Read as TypeScript (the prologue reader), the
// same holds.
func FuzzNamespaceImports(f *testing.F) {
	for _, s := range []string{
		`import { z } from "zod"; z.object();`,
		"import d, { z as q, y } from 'zod'\nconst s = `import { z } from \"zod\"`;",
		`var a=1;import{z as Q}from"zod/v4";const r=/import{z}from"zod"/;`,
		"import /* { */ { util } from \"zod\" // }\n;util.x()",
		"\"use strict\";\nimport { z } from \"zod\"\n/re/.test(z)",
		"import * as core from \"./core/index.js\";\nfunction f(core) { return core.util.a; }\ncore.util.b(core.util);",
		"import { z } from \"zod\"; z.core.util.x; z.util.y; const q = `${z.core.a}`;",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, ts bool) {
		if len(src) > 2048 {
			return
		}
		file := "/app/main.js"
		if ts {
			file = "/app/main.ts"
		}
		out, changed := namespaceImports(file, src, zodNamespaces)
		if !checkLineKeeping(t, src, out, changed) {
			return
		}
		before, ok := parseJSModule(src)
		if !ok {
			return // not JavaScript (the TypeScript reader may still rewrite it)
		}
		after, ok := parseJSModule(out)
		if !ok {
			t.Fatalf("%q parses, its rewrite %q does not", src, out)
		}
		// A member namespace read (core.util) becomes its own namespace
		// import, named after it.
		var names []string
		for _, d := range before.imports() {
			for _, local := range append([]string{d.namespace}, bindingLocals(d)...) {
				for _, member := range []string{"util", "core"} {
					names = append(names, "__widgetd_ns_"+local+"_"+member, "("+local+"."+member+")")
				}
			}
		}
		a := strings.NewReplacer(names...).Replace(strings.Join(nonImportStatements(after), "\n"))
		if b := strings.Join(nonImportStatements(before), "\n"); a != b {
			t.Fatalf("statements other than imports changed:\n%s\n→\n%s", b, a)
		}
		added := len(after.ast.BlockStmt.List) - len(before.ast.BlockStmt.List)
		ns := 0
		for _, stmt := range after.ast.BlockStmt.List {
			if imp, ok := stmt.(*js.ImportStmt); ok && len(imp.List) == 1 && string(imp.List[0].Name) == "*" {
				ns++
			}
		}
		if added <= 0 || ns < added {
			t.Fatalf("rewrite added %d statements, %d namespace imports in all: %q", added, ns, out)
		}
	})
}

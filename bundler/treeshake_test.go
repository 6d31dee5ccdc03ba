package bundler

import (
	"os"
	"strings"
	"testing"
)

// TestTreeShakingLikeRolldown builds widgets against packages written the
// way zod, the MCP SDK and ext-apps are, and checks that what Vite 8 drops
// is dropped (unused namespace members, branded classes, data tables and
// schemas) and what has effects stays.
func TestTreeShakingLikeRolldown(t *testing.T) {
	root := writeProject(t, map[string]string{
		"node_modules/nspkg/package.json":   `{"name": "nspkg", "type": "module", "exports": {".": "./index.js", "./v2": "./v2/index.js"}}`,
		"node_modules/nspkg/index.js":       `import * as n from "./impl.js";` + "\n" + `export * from "./impl.js";` + "\n" + `export { n, n as default };`,
		"node_modules/nspkg/impl.js":        `export function used() { return "NS_USED"; }` + "\n" + `export function unused() { return "NS_UNUSED"; }`,
		"node_modules/nspkg/v2/index.js":    `export * from "../index.js";`,
		"node_modules/brands/package.json":  `{"name": "brands", "type": "module", "main": "index.js"}`,
		"node_modules/brands/index.js":      brandedClasses(t),
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
		"node_modules/zod/package.json":     `{"name": "zod", "type": "module", "sideEffects": false, "exports": {"./v4": "./v4/index.js"}}`,
		"node_modules/zod/v4/index.js":      jstransformFixture(t, "zodstub.js"),
		"node_modules/data/package.json":    `{"name": "data", "type": "module", "main": "index.js"}`,
		"node_modules/data/index.js":        jstransformFixture(t, "puredata.js"),
		"node_modules/data/codes.js":        `export const TAG = "tag";` + "\n" + `export let Code = /* @__PURE__ */ function(C) { C[C["Invalid"] = -32600] = "Invalid"; C[C["Missing"] = -32601] = "Missing"; return C; }({});`,
		"widgets/data/widget.json":          widgetJSON("main.js"),
		"widgets/data/main.js":              `import { status, parseMessage } from "data";` + "\n" + `document.body.textContent = status(-32600) + parseMessage("m").description;`,
		// Imported at run time, the module is wrapped in esbuild's lazy
		// initialiser, where it keeps even a table of property reads (the
		// MCP SDK's client is bundled so in an App widget).
		"widgets/lazydata/widget.json": widgetJSON("main.js"),
		"widgets/lazydata/main.js":     `import("data").then(({ status, parseMessage }) => { document.body.textContent = status(-32600) + parseMessage("m").description; });`,
	})
	_, out := assembleOK(t, testOptions(root))
	dataKept := []string{"STATUS_KEPT", "BASE_KEPT", "MESSAGE_KEPT", "REGISTERED_KEPT", "EFFECT_KEPT", "UNKNOWN_KEPT", "FROMLATER_KEPT",
		"SPREAD_KEPT", "SUM_KEPT"}
	want := map[string][]string{
		"named": {"NS_USED"}, "default": {"NS_USED"}, "chain": {"NS_USED"}, "star": {"NS_USED"}, "member": {"NS_USED"},
		"classes": {"BRAND_KEPT", "EFFECT_KEPT", "FIELD_KEPT", "COMPUTED_KEPT"},
		"data":    dataKept, "lazydata": dataKept,
	}
	dropped := []string{"NS_UNUSED", "BRAND_UNUSED", "FRIEND_UNUSED", "LADDER_UNUSED", "LIMITS_UNUSED", "PING_UNUSED"}
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

// brandedClasses returns the module of classes in the shape the MCP
// TypeScript SDK ships, the fixture jstransform's pure-class tests use.
func brandedClasses(t *testing.T) string {
	t.Helper()
	return jstransformFixture(t, "brandedclasses.js")
}

// jstransformFixture returns a module of jstransform's testdata: the
// shapes its rewrites are written for, built here as packages.
func jstransformFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("internal/jstransform/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

package bridge_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// minifiedGolden records the sha256 and size of the minified bridge modules.
const minifiedGolden = "testdata/minified.txt"

// bridgeModules are one-module widgets whose built script is only the bridge
// code they pull in: the core alone, as every widget carries it, then each
// optional module with all its exports kept (the core included).
var bridgeModules = map[string]string{
	"core":        `import "widgetd";`,
	"core-all":    `import * as m from "widgetd"; (window as any).m = m;`,
	"tools":       `import * as m from "widgetd/tools"; (window as any).m = m;`,
	"chatgpt":     `import * as m from "widgetd/chatgpt"; (window as any).m = m;`,
	"mcp":         `import * as m from "widgetd/mcp"; (window as any).m = m;`,
	"react":       `import * as m from "widgetd/react"; (window as any).m = m;`,
	"app-adapter": `import "widgetd/app-adapter";`, // "bridge": "full" (fullBridge)
	// The lighter bridge levels, chosen by "bridge": "auto" (the default):
	// the App adapter over window.openai, and the handshake core.
	"level-app":  `import "widgetd/app-adapter";`,
	"level-core": `document.title;`,
}

// fullBridge are the bridgeModules built with "bridge": "full".
var fullBridge = map[string]bool{"app-adapter": true}

// TestMinifiedBridge pins the bytes esbuild makes of the bridge sources: they
// are part of every widget, so of every widget's content hash. A change to
// bundler/bridge/src that alters them (even a rename: esbuild picks the short
// names by the sources' letter frequencies) fails here; when the change is
// meant, run with -update and say in the commit that widget hashes change.
func TestMinifiedBridge(t *testing.T) {
	files := scriptWidgets(bridgeModules)
	for name := range fullBridge {
		files[name+"/widget.json"] = `{"entry": "main.ts", "bridge": "full"}` + "\n"
	}
	// External, so each module's script is a file of its own.
	out, err := buildProject("", "https://cdn.example.com/", files)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for path, data := range out.Files {
		name, ok := strings.CutPrefix(path, "assets/")
		if !ok || !strings.HasSuffix(name, ".js") {
			continue
		}
		name = name[:strings.LastIndexByte(name, '-')] // drop the content hash
		if _, ok := bridgeModules[name]; ok {
			lines = append(lines, fmt.Sprintf("%s %x %d", name, sha256.Sum256(data), len(data)))
		}
	}
	slices.Sort(lines)
	if len(lines) != len(bridgeModules) {
		t.Fatalf("built %d module scripts, want %d: %v", len(lines), len(bridgeModules), lines)
	}
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(minifiedGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(minifiedGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the minified bridge changed, and with it every widget's hash (name sha256 bytes):\n got:\n%s\nwant:\n%s\nIf that is meant, run go test ./bundler/bridge -run TestMinifiedBridge -update", got, want)
	}
}

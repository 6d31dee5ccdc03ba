package docs

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
	"github.com/widgetd/widgetd/typecheck"
	"github.com/widgetd/widgetd/typesgen"
)

// sourceLine is the header line of a generated file that names its source.
var sourceLine = regexp.MustCompile(`(?m)^// Source: widgetd types .*$`)

// TestTypedWalkthrough follows docs/embedding.md's typed path as a reader
// would: step 1's server (the snippet, verbatim, as cmd/server/main.go with
// the example widgets' dist/) built and run by `widgetd types --from`; the
// file it generates must be the one step 2 shows; step 3's widget must
// type-check against it with tsc --strict.
func TestTypedWalkthrough(t *testing.T) {
	ctx := context.Background()
	if err := os.MkdirAll("testdata/tmpbuild", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata/tmpbuild", "typed-") // inside the module: it builds against this checkout
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	dir, _ = filepath.Abs(dir)
	server := filepath.Join(dir, "cmd", "server")
	if err := os.CopyFS(filepath.Join(server, "dist"), os.DirFS("../examples/mcpserver/dist")); err != nil {
		t.Fatal(err)
	}
	testfiles.WriteFile(t, filepath.Join(server, "main.go"), snippet(t, "../docs/embedding.md", "typed-server"))
	widgets := snippetProject(t, []tsSnippet{{ext: "tsx", code: snippet(t, "../docs/embedding.md", "typed-widget")}})
	if err := os.Rename(filepath.Join(widgets, "s0"), filepath.Join(widgets, "weather")); err != nil {
		t.Fatal(err)
	}

	pkg, err := typesgen.ResolvePackage(ctx, dir, "./cmd/server")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := typesgen.Regenerate(ctx, typesgen.Source{From: pkg}, dir, widgets)
	if err != nil {
		t.Fatal(err)
	}
	generated := filepath.Join(widgets, "weather", typesgen.FileName)
	data, ok := plan.Write[generated]
	if !ok || len(plan.Write) != 1 {
		t.Fatalf("widgetd types --from ./cmd/server planned %v, want %s alone", plan.Write, generated)
	}
	testfiles.WriteFile(t, generated, string(data))
	shown := snippet(t, "../docs/embedding.md", "typed-generated")
	normal := func(s string) string { return sourceLine.ReplaceAllString(s, "// Source: …") }
	if normal(shown) != normal(string(data)) {
		t.Errorf("docs/embedding.md's typed-generated block is not what step 1's server generates; it generates:\n%s", data)
	}
	diags, err := typecheck.Run(ctx, widgets)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("step 3's widget does not type-check against the generated types: %s", d)
	}
}

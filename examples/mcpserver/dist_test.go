package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler"
)

// TestEmbeddedDistIsCurrent rebuilds the example widgets and checks that the
// committed dist/ is what `go generate ./examples/mcpserver` would produce
// now, so the embedded widgets never drift from their sources.
func TestEmbeddedDistIsCurrent(t *testing.T) {
	if _, err := os.Stat("../../widgets/node_modules/react"); err != nil {
		t.Fatalf("widgets/node_modules missing: run `npm ci` in widgets/ (%v)", err)
	}
	res, err := bundler.Build(context.Background(), bundler.Options{Root: "../..", WidgetsDir: "widgets", OutDir: filepath.Join(t.TempDir(), "dist"), NoCompress: true})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("dist/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var committed assets.Manifest
	if err := json.Unmarshal(data, &committed); err != nil {
		t.Fatal(err)
	}
	if committed.BuildID != res.Manifest.BuildID {
		for _, w := range res.Manifest.Widgets {
			for _, c := range committed.Widgets {
				if c.Name == w.Name && c.Hash != w.Hash {
					t.Errorf("widget %s: committed hash %s, sources give %s", w.Name, c.Hash, w.Hash)
				}
			}
		}
		t.Fatalf("examples/mcpserver/dist is stale (build %s, sources give %s): run `go generate ./examples/mcpserver` and commit dist/", committed.BuildID, res.Manifest.BuildID)
	}
}

package typesgen

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// corpusTool makes the tool of one corpus schema: named after the file, its
// schema as the output and a small input, showing the widget "corpus-<stem>".
func corpusTool(t *testing.T, path string) Tool {
	t.Helper()
	schema, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stem := strings.TrimSuffix(filepath.Base(path), ".json")
	meta, _ := json.Marshal(map[string]any{"ui": map[string]string{"resourceUri": "ui://widget/corpus-" + stem + ".0123abcd.html"}})
	return Tool{Name: "corpus-" + stem, Description: "Tool of the corpus schema " + stem + ".json.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`),
		OutputSchema: schema, Meta: meta}
}

// TestCorpusGolden converts every schema of testdata/corpus and compares
// the declaration file with its golden.
func TestCorpusGolden(t *testing.T) {
	paths, _ := filepath.Glob("testdata/corpus/*.json")
	if len(paths) < 5 {
		t.Fatalf("corpus has %d schemas", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			files, err := Generate([]Tool{corpusTool(t, p)}, Source{From: "example.com/corpus"})
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != 1 {
				t.Fatalf("got %d files, want 1", len(files))
			}
			golden.Check(t, strings.TrimSuffix(p, ".json")+".d.ts", files[0].Data, *update)
		})
	}
}

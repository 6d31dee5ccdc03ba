package typesgen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzGenerate feeds arbitrary documents to the generator as a tool's
// outputSchema: it must not panic, must answer within the fuzzer's time
// limit (exponential $ref expansion is bounded), and every file it writes
// declares the tool.
func FuzzGenerate(f *testing.F) {
	paths, _ := filepath.Glob("testdata/corpus/*.json")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"$ref":"#/properties/a","properties":{"a":{"$ref":"#/properties/a"}}}`))
	f.Add([]byte(`{"allOf":[{"$ref":"#/allOf/0"}],"items":[true,false]}`))
	f.Add([]byte(`{"properties":{"a":{"properties":{"x":{"$ref":"#/properties/b"},"y":{"$ref":"#/properties/b"}}},"b":{"properties":{"x":{"$ref":"#/properties/c"},"y":{"$ref":"#/properties/c"}}},"c":{"type":"string"}}}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		if len(schema) > 64<<10 || !json.Valid(schema) {
			return
		}
		tool := Tool{Name: "t", OutputSchema: schema, Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://widget/w.html"}}`)}
		files, err := Generate([]Tool{tool}, Source{MCP: "http://127.0.0.1/mcp"})
		if err != nil {
			return
		}
		if len(files) != 1 || !strings.Contains(string(files[0].Data), `"t": { input: TInput; output: TOutput };`) {
			t.Fatalf("files %d; want one declaring tool t:\n%s", len(files), files)
		}
	})
}

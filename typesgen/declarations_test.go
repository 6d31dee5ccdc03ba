package typesgen

import (
	"strings"
	"testing"
)

// TestDeclarations checks that each $defs entry becomes one exported type in
// document order, that a $ref between entries names the other type, and
// that a document without $defs or not JSON is an error.
func TestDeclarations(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string
		err       string
	}{
		{name: "refs and order",
			doc: `{"$defs":{"Zed":{"type":"object","properties":{"a":{"$ref":"#/$defs/Alpha"}},"required":["a"],"additionalProperties":false},
			"Alpha":{"description":"Alpha is first.","type":["null","string"]}}}`,
			want: []string{"export type Zed = {\n  a: Alpha;\n};\n", "/**\n * Alpha is first.\n */\nexport type Alpha = string | null;\n"}},
		{name: "optional and open", doc: `{"$defs":{"O":{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":{}}}}`,
			want: []string{"export type O = {\n  x?: number;\n  [key: string]: unknown;\n};\n"}},
		{name: "no defs", doc: `{"type":"object"}`, err: "no $defs"},
		{name: "not JSON", doc: `{"$defs":`, err: "parsing the schema document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Declarations([]byte(c.doc))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rest := got
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

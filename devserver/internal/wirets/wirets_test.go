package wirets

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	N int `json:"n"`
}

type outer struct {
	Name     string          `json:"name"`
	Optional string          `json:"optional,omitempty"`
	List     []inner         `json:"list"`
	MaybeOne *inner          `json:"maybeOne"`
	OmitOne  *inner          `json:"omitOne,omitempty"`
	OmitList []string        `json:"omitList,omitempty"`
	Raw      json.RawMessage `json:"raw,omitempty"`
	Opaque   opaque          `json:"opaque"`
	Skipped  string          `json:"-"`
}

type opaque struct{ hidden int }

// TestGenerate checks what the wire carries becomes the TypeScript: names
// for the listed types, null only where encoding/json can write it (a nil
// slice or pointer without omitempty), optional members for omitempty,
// unknown for json.RawMessage, any object for an opaque type, and an open
// type's index signature.
func TestGenerate(t *testing.T) {
	cases := []struct {
		name  string
		types []Type
		want  []string
	}{
		{name: "closed", types: []Type{{Name: "Outer", Go: reflect.TypeFor[outer](), Doc: "Outer doc."}, {Name: "Inner", Go: reflect.TypeFor[inner]()}},
			want: []string{"/**\n * Outer doc.\n */\nexport type Outer = {\n", "  name: string;\n", "  optional?: string;\n", "  list: Inner[] | null;\n",
				"  maybeOne: Inner | null;\n", "  omitOne?: Inner;\n", "  omitList?: string[];\n", "  raw?: unknown;\n", "  opaque: {\n    [key: string]: unknown;\n  };\n};\n",
				"export type Inner = {\n  n: number;\n};\n"}},
		{name: "open", types: []Type{{Name: "Inner", Go: reflect.TypeFor[inner](), Open: true}},
			want: []string{"export type Inner = {\n  n: number;\n  [key: string]: unknown;\n};\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Generate("// header\n", c.types, []reflect.Type{reflect.TypeFor[opaque]()})
			if err != nil {
				t.Fatal(err)
			}
			s := string(got)
			if !strings.HasPrefix(s, "// header\n") || strings.Contains(s, "Skipped") || strings.Contains(s, "skipped") {
				t.Errorf("header missing or a json:\"-\" field written:\n%s", s)
			}
			rest := s
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, s)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// TestGenerateUnsupported checks a type JSON cannot carry is an error
// naming it, not a panic or a silent gap.
func TestGenerateUnsupported(t *testing.T) {
	type bad struct {
		F func() `json:"f"`
	}
	_, err := Generate("", []Type{{Name: "Bad", Go: reflect.TypeFor[bad]()}}, nil)
	if err == nil || !strings.Contains(err.Error(), "bad") {
		t.Fatalf("err = %v, want one naming the type", err)
	}
}

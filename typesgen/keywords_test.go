package typesgen

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaKeywords is every keyword go-sdk's jsonschema package (the Schema
// type of github.com/google/jsonschema-go) reads and writes, from its
// struct tags; fields tagged "-" are written under these names by its
// MarshalJSON, and Extra under any other name.
func schemaKeywords(t *testing.T) []string {
	t.Helper()
	special := map[string]string{"Type": "type", "Types": "type", "Items": "items", "ItemsArray": "items",
		"DependencySchemas": "dependencies", "DependencyStrings": "dependencies", "Extra": "x-unknown-keyword"}
	var out []string
	rt := reflect.TypeFor[jsonschema.Schema]()
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Name == "PropertyOrder": // not a keyword: the order of "properties"
		case name == "-" && special[f.Name] == "":
			t.Errorf("jsonschema.Schema field %s is new: add it to the corpus and to this table", f.Name)
		case name == "-":
			out = append(out, special[f.Name])
		default:
			out = append(out, name)
		}
	}
	return out
}

// TestCorpusCoversEveryKeyword fails when a keyword jsonschema-go can emit
// appears in no corpus schema, and checks every corpus schema is one
// jsonschema-go itself reads and resolves.
func TestCorpusCoversEveryKeyword(t *testing.T) {
	paths, _ := filepath.Glob("testdata/corpus/*.json")
	seen := map[string]bool{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Errorf("%s: jsonschema-go cannot read it: %v", p, err)
			continue
		}
		if _, err := s.Resolve(&jsonschema.ResolveOptions{Loader: noRemote}); err != nil {
			t.Errorf("%s: jsonschema-go cannot resolve it: %v", p, err)
		}
		collectKeys(data, seen)
	}
	for _, k := range schemaKeywords(t) {
		if !seen[k] {
			t.Errorf("keyword %q is in no schema of testdata/corpus", k)
		}
	}
}

// noRemote refuses to load other documents: the corpus names one remote
// $ref on purpose, which the generator types as unknown.
func noRemote(*url.URL) (*jsonschema.Schema, error) {
	return &jsonschema.Schema{}, nil
}

// collectKeys records every object key in a JSON document.
func collectKeys(data []byte, seen map[string]bool) {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				seen[k] = true
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
}

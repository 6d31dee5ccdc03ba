// Package wirets writes the TypeScript declarations of Go types that travel
// as JSON, so the dev preview's TypeScript (devserver/hostapp/src/gen/wire.ts)
// is generated from the structs the dev server marshals instead of declared
// again by hand. It infers each type's JSON Schema with jsonschema-go (the
// fields, their JSON names, omitempty) and converts the schemas with
// typesgen, the converter `widgetd types` uses for tools.
package wirets

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/widgetd/widgetd/typesgen"
)

// Type is one Go type to declare: its TypeScript name and a doc comment.
type Type struct {
	// Name is the TypeScript name (Go's unexported pageConfig is PageConfig).
	Name string
	// Go is the type as encoding/json marshals it.
	Go reflect.Type
	// Doc says what the value is and where it comes from.
	Doc string
	// Open is set for a struct whose MarshalJSON also writes keys it was
	// decoded with and does not name: its type admits any other key.
	Open bool
}

// opaqueObject is the schema of a type written as any JSON object: for
// types with a MarshalJSON of their own whose fields do not say their shape.
var opaqueObject = jsonschema.Schema{Type: "object"}

// Generate returns the TypeScript file declaring types, in order, after
// header (a comment naming the generator). A field of one of the types is
// written by name; a field of a type in opaque is any JSON object;
// json.RawMessage is unknown.
func Generate(header string, types []Type, opaque []reflect.Type) ([]byte, error) {
	known := map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): {}}
	for _, t := range opaque {
		o := opaqueObject
		known[t] = &o
	}
	for _, t := range types {
		known[t.Go] = &jsonschema.Schema{Ref: "#/$defs/" + t.Name}
	}
	defs := map[string]*jsonschema.Schema{}
	var order []string
	for _, t := range types {
		s, err := schemaOf(t, known)
		if err != nil {
			return nil, err
		}
		defs[t.Name] = s
		order = append(order, t.Name)
	}
	doc, err := json.Marshal(orderedDefs{names: order, defs: defs})
	if err != nil {
		return nil, fmt.Errorf("encoding the schemas: %w", err)
	}
	ts, err := typesgen.Declarations(doc)
	if err != nil {
		return nil, fmt.Errorf("converting the schemas to TypeScript: %w", err)
	}
	return []byte(header + ts), nil
}

// schemaOf infers t's schema, every other known type a reference.
func schemaOf(t Type, known map[reflect.Type]*jsonschema.Schema) (*jsonschema.Schema, error) {
	others := make(map[reflect.Type]*jsonschema.Schema, len(known))
	for k, v := range known {
		if k != t.Go {
			others[k] = v
		}
	}
	s, err := jsonschema.ForType(t.Go, &jsonschema.ForOptions{TypeSchemas: others})
	if err != nil {
		return nil, fmt.Errorf("inferring the schema of %s: %w", t.Go, err)
	}
	s.Description = t.Doc
	if t.Open {
		s.AdditionalProperties = &jsonschema.Schema{}
	}
	normalize(s, true)
	return s, nil
}

// normalize rewrites what jsonschema-go infers into what the wire carries:
// an omitempty field never holds null (encoding/json leaves a nil slice,
// map or pointer out), and a nullable reference is a union, not a
// reference with type ["null"].
func normalize(s *jsonschema.Schema, required bool) {
	if s == nil {
		return
	}
	if !required {
		s.Types = slices.DeleteFunc(s.Types, func(t string) bool { return t == "null" })
	}
	if s.Ref != "" && slices.Equal(s.Types, []string{"null"}) {
		s.AnyOf = []*jsonschema.Schema{{Ref: s.Ref}, {Type: "null"}}
		s.Ref, s.Types = "", nil
	}
	if len(s.Types) == 1 {
		s.Type, s.Types = s.Types[0], nil
	}
	for name, p := range s.Properties {
		normalize(p, slices.Contains(s.Required, name))
	}
	normalize(s.Items, true)
	if s.AdditionalProperties != nil {
		normalize(s.AdditionalProperties, true)
	}
}

// orderedDefs marshals as {"$defs": {...}} with the definitions in the
// order given, which typesgen keeps in its output.
type orderedDefs struct {
	names []string
	defs  map[string]*jsonschema.Schema
}

// MarshalJSON writes the document.
func (o orderedDefs) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i, name := range o.names {
		one, err := json.Marshal(o.defs[name])
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", name, err)
		}
		if i > 0 {
			b.WriteString(",")
		}
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteString(":")
		b.Write(one)
	}
	b.WriteString("}}")
	return []byte(b.String()), nil
}

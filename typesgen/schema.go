package typesgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Schema is one JSON Schema (2020-12, with the draft-07 spellings go-sdk's
// jsonschema package still reads) as far as TypeScript can express it; the
// remaining keywords become doc-comment tags. Bool is set for the boolean
// schemas true and false.
type Schema struct {
	Bool *bool

	Ref, DynamicRef, Anchor, DynamicAnchor, ID string

	Title, Description, Comment string
	Default                     json.RawMessage
	Examples                    []json.RawMessage
	Deprecated, ReadOnly        bool
	WriteOnly                   bool

	Types []string
	Enum  []json.RawMessage
	Const json.RawMessage

	Properties           []Property
	Required             []string
	AdditionalProperties *Schema
	PatternProperties    []Property
	UnevaluatedProps     *Schema

	Items           *Schema
	ItemsArray      []*Schema
	PrefixItems     []*Schema
	AdditionalItems *Schema

	AllOf, AnyOf, OneOf []*Schema
	Not                 *Schema

	Defs []Property

	// Constraints holds the validation keywords TypeScript has no type for
	// (minimum, pattern, format, …) in document order, as doc tags.
	Constraints []Property
	constraint  map[string]json.RawMessage
	// pending is set on the pseudo-schemas JSON pointer resolution uses for
	// maps and lists: it takes the next token.
	pending func(string) *Schema
}

// Property is a named subschema, in the order the document lists it (go-sdk
// lists a struct's fields in declaration order).
type Property struct {
	Name   string
	Schema *Schema
	Raw    json.RawMessage
}

// constraintKeywords are the keywords shown as doc tags, in this order.
var constraintKeywords = []string{
	"format", "pattern", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
	"multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems",
	"contains", "minContains", "maxContains", "minProperties", "maxProperties",
	"propertyNames", "dependentRequired", "dependentSchemas", "dependencies",
	"if", "then", "else", "not", "contentEncoding", "contentMediaType", "contentSchema",
	"unevaluatedItems",
}

// ParseSchema decodes one schema document.
func ParseSchema(data []byte) (*Schema, error) {
	s := new(Schema)
	if err := s.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return s, nil
}

// UnmarshalJSON decodes a schema, keeping the order of properties and $defs.
func (s *Schema) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "true" || string(data) == "false" {
		b := string(data) == "true"
		s.Bool = &b
		return nil
	}
	fields, err := orderedObject(data)
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	s.constraint = map[string]json.RawMessage{}
	for _, f := range fields {
		if err := s.setKeyword(f.Name, f.Raw); err != nil {
			return fmt.Errorf("schema keyword %q: %w", f.Name, err)
		}
	}
	for _, k := range constraintKeywords {
		if raw, ok := s.constraint[k]; ok {
			s.Constraints = append(s.Constraints, Property{Name: k, Raw: raw})
		}
	}
	return nil
}

// setKeyword decodes one keyword into s; keywords that do not shape the
// TypeScript type are kept as constraints (or ignored when unknown).
func (s *Schema) setKeyword(name string, raw json.RawMessage) error {
	strs := map[string]*string{"$ref": &s.Ref, "$dynamicRef": &s.DynamicRef, "$anchor": &s.Anchor,
		"$dynamicAnchor": &s.DynamicAnchor, "$id": &s.ID, "title": &s.Title,
		"description": &s.Description, "$comment": &s.Comment}
	if p, ok := strs[name]; ok {
		return json.Unmarshal(raw, p)
	}
	bools := map[string]*bool{"deprecated": &s.Deprecated, "readOnly": &s.ReadOnly, "writeOnly": &s.WriteOnly}
	if p, ok := bools[name]; ok {
		return json.Unmarshal(raw, p)
	}
	subs := map[string]**Schema{"additionalProperties": &s.AdditionalProperties,
		"unevaluatedProperties": &s.UnevaluatedProps, "additionalItems": &s.AdditionalItems, "not": &s.Not}
	if p, ok := subs[name]; ok {
		*p = new(Schema)
		if name == "not" {
			s.constraint[name] = raw
		}
		return (*p).UnmarshalJSON(raw)
	}
	lists := map[string]*[]*Schema{"allOf": &s.AllOf, "anyOf": &s.AnyOf, "oneOf": &s.OneOf, "prefixItems": &s.PrefixItems}
	if p, ok := lists[name]; ok {
		return json.Unmarshal(raw, p)
	}
	return s.setShapeKeyword(name, raw)
}

func (s *Schema) setShapeKeyword(name string, raw json.RawMessage) error {
	var err error
	switch name {
	case "type":
		s.Types, err = parseTypes(raw)
	case "enum":
		err = json.Unmarshal(raw, &s.Enum)
	case "const":
		s.Const = raw
	case "default":
		s.Default = raw
	case "examples":
		err = json.Unmarshal(raw, &s.Examples)
	case "required":
		err = json.Unmarshal(raw, &s.Required)
	case "properties":
		s.Properties, err = schemaMap(raw)
	case "patternProperties":
		s.PatternProperties, err = schemaMap(raw)
	case "$defs", "definitions":
		var defs []Property
		defs, err = schemaMap(raw)
		s.Defs = append(s.Defs, defs...)
	case "items":
		if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
			err = json.Unmarshal(raw, &s.ItemsArray)
		} else {
			s.Items = new(Schema)
			err = s.Items.UnmarshalJSON(raw)
		}
	default:
		s.constraint[name] = raw
	}
	return err
}

func parseTypes(raw json.RawMessage) ([]string, error) {
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf("want a type name or a list of them: %s", raw)
	}
	return many, nil
}

func schemaMap(raw json.RawMessage) ([]Property, error) {
	fields, err := orderedObject(raw)
	if err != nil {
		return nil, err
	}
	for i := range fields {
		fields[i].Schema = new(Schema)
		if err := fields[i].Schema.UnmarshalJSON(fields[i].Raw); err != nil {
			return nil, fmt.Errorf("%q: %w", fields[i].Name, err)
		}
	}
	return fields, nil
}

// orderedObject splits a JSON object into its members in document order.
func orderedObject(data []byte) ([]Property, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("want an object or a boolean, got %s", abbreviate(data))
	}
	var out []Property
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, Property{Name: tok.(string), Raw: raw})
	}
	_, err = dec.Token()
	return out, err
}

func abbreviate(data []byte) string {
	s := strings.TrimSpace(string(data))
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// isRequired reports whether the object schema requires name.
func (s *Schema) isRequired(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

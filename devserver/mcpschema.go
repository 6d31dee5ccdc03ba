package devserver

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// validateArguments checks a tool call's arguments against the tool's
// inputSchema (as tools/list sent it) with the JSON Schema validator the
// go-sdk uses, before the call reaches the server. checked is false when
// the schema cannot be used (not an object, a $ref the validator cannot
// resolve, an unsupported draft): the call then goes out unvalidated, as
// the server validates anyway.
func validateArguments(schema any, args map[string]any) (checked bool, err error) {
	if schema == nil {
		return false, nil
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return false, nil
	}
	var s jsonschema.Schema
	if json.Unmarshal(raw, &s) != nil || !validatorDraft(s.Schema) {
		return false, nil
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return false, nil
	}
	if args == nil {
		args = map[string]any{}
	}
	// Validate sees what the server will decode: JSON numbers as float64.
	inst, err := roundTripJSON(args)
	if err != nil {
		return false, nil
	}
	if err := resolved.Validate(inst); err != nil {
		return true, fmt.Errorf("arguments do not match the tool's inputSchema: %w", err)
	}
	return true, nil
}

// validatorDraft reports whether jsonschema-go validates schemas that
// declare this $schema (none means its default, 2020-12).
func validatorDraft(schema string) bool {
	switch schema {
	case "", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#",
		"https://json-schema.org/draft/2020-12/schema":
		return true
	}
	return false
}

// roundTripJSON is v as encoding/json decodes it into an any.
func roundTripJSON(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(raw, &out)
	return out, err
}

package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Decode decodes data, the contents of file, into v (a pointer to
// a struct) the way widget.json is read: one UTF-8 JSON object, no duplicate
// keys, no field v's struct types do not declare (maps and json.RawMessage
// accept any keys), and every error as a *Error at file:line:col with a
// "did you mean" for misspelt fields. what names the document in messages
// ("fixture"). When v has a Validate() error method it runs last, and a
// *FieldError it returns points at its field.
func Decode(file string, data []byte, v any, what string) error {
	doc, err := Parse(file, data)
	if err != nil {
		return err
	}
	t := reflect.TypeOf(v)
	if t.Kind() != reflect.Pointer {
		return fmt.Errorf("Decode: v must be a pointer, got %s", t)
	}
	if err := doc.checkType(0, t.Elem(), what); err != nil {
		return err
	}
	if err := doc.Decode(v); err != nil {
		return err
	}
	if val, ok := v.(interface{ Validate() error }); ok {
		if err := val.Validate(); err != nil {
			var fe *FieldError
			if errors.As(err, &fe) {
				return doc.ErrPath(fe.Path, "%s", fe.Message)
			}
			return doc.ErrAt(0, "%v", err)
		}
	}
	return nil
}

// FieldError is a problem with one value of a JSON document, named by its
// path ("expect.calls[0].tool"); Decode turns it into a
// file:line:col diagnostic when v's Validate method returns one.
type FieldError struct {
	Path    string
	Message string
}

// Error is the field's JSON path and what is wrong with its value.
func (e *FieldError) Error() string { return e.Path + ": " + e.Message }

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// checkType reports the first object key at or under node n that t does
// not accept. It walks the node tree, so the paths in its messages are built
// only for the one it reports.
func (doc *Doc) checkType(n int32, t reflect.Type, what string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType {
		return nil
	}
	node := &doc.nodes[n]
	switch {
	case t.Kind() == reflect.Struct && node.kind == '{':
		fields := jsonFields(t)
		for c := node.first; c >= 0; c = doc.nodes[c].next {
			k := doc.nodes[c].key
			ft, known := fields[k]
			if !known {
				return doc.ErrAt(doc.nodes[c].off, "%s", unknownFieldMessage(k, doc.pathOf(n), what, fields))
			}
			if err := doc.checkType(c, ft, what); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map && node.kind == '{',
		(t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && node.kind == '[':
		for c := node.first; c >= 0; c = doc.nodes[c].next {
			if err := doc.checkType(c, t.Elem(), what); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFields maps the JSON names of t's exported fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}

func unknownFieldMessage(key, path, what string, fields map[string]reflect.Type) string {
	allowed := make([]string, 0, len(fields))
	for k := range fields {
		allowed = append(allowed, k)
	}
	sort.Strings(allowed)
	where := what
	if path != "" {
		where = fmt.Sprintf("%q", path)
	}
	msg := fmt.Sprintf("unknown field %q in %s", key, where)
	if s := closest(key, allowed); s != "" {
		return msg + fmt.Sprintf("; did you mean %q?", s)
	}
	return msg + "; allowed: " + strings.Join(allowed, ", ")
}

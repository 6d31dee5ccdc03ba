package assets

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// The JSON form of the _meta types: each decodes the keys it names into its
// fields and keeps the others, and encodes both back in byte order, so a
// _meta object read from manifest.json is written out exactly as it came.

// MarshalJSON writes m's keys and the unnamed ones it was decoded with.
func (m ResourceMeta) MarshalJSON() ([]byte, error) {
	type fields ResourceMeta
	return encodeObject(fields(m), m.extra)
}

// MarshalJSON writes u's keys and the unnamed ones it was decoded with.
func (u UIMeta) MarshalJSON() ([]byte, error) {
	type fields UIMeta
	return encodeObject(fields(u), u.extra)
}

// MarshalJSON writes c's lists and the unnamed keys it was decoded with.
func (c UICSP) MarshalJSON() ([]byte, error) {
	type fields UICSP
	return encodeObject(fields(c), c.extra)
}

// MarshalJSON writes c's lists and the unnamed keys it was decoded with.
func (c WidgetCSP) MarshalJSON() ([]byte, error) {
	type fields WidgetCSP
	return encodeObject(fields(c), c.extra)
}

// UnmarshalJSON reads a _meta object, keeping keys ResourceMeta does not name.
func (m *ResourceMeta) UnmarshalJSON(b []byte) (err error) {
	type fields ResourceMeta
	m.extra, err = decodeObject(b, (*fields)(m), "_meta")
	return err
}

// UnmarshalJSON reads a _meta.ui object, keeping keys UIMeta does not name.
func (u *UIMeta) UnmarshalJSON(b []byte) (err error) {
	type fields UIMeta
	u.extra, err = decodeObject(b, (*fields)(u), "ui")
	return err
}

// UnmarshalJSON reads a _meta.ui.csp object, keeping keys UICSP does not name.
func (c *UICSP) UnmarshalJSON(b []byte) (err error) {
	type fields UICSP
	c.extra, err = decodeObject(b, (*fields)(c), "csp")
	return err
}

// UnmarshalJSON reads an openai/widgetCSP object, keeping keys WidgetCSP
// does not name.
func (c *WidgetCSP) UnmarshalJSON(b []byte) (err error) {
	type fields WidgetCSP
	c.extra, err = decodeObject(b, (*fields)(c), "openai/widgetCSP")
	return err
}

// MarshalJSON writes each granted permission as an empty object, with the
// unnamed permissions p was decoded with.
func (p Permissions) MarshalJSON() ([]byte, error) {
	all := make(map[string]any, len(p.extra)+5)
	for k, v := range p.extra {
		all[k] = v
	}
	for _, k := range p.permissionKeys() {
		if *k.on {
			all[k.key] = struct{}{}
		}
	}
	return json.Marshal(all)
}

// UnmarshalJSON reads an object whose keys name granted permissions, keeping
// the ones Permissions does not name.
func (p *Permissions) UnmarshalJSON(b []byte) error {
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		return fmt.Errorf("permissions: %w", err)
	}
	*p = Permissions{}
	for _, k := range p.permissionKeys() {
		_, *k.on = all[k.key]
		delete(all, k.key)
	}
	if len(all) > 0 {
		p.extra = all
	}
	return nil
}

// none reports that p grants nothing, named or not.
func (p Permissions) none() bool {
	return !p.Camera && !p.ClipboardWrite && !p.Geolocation && !p.Microphone && !p.Tools && len(p.extra) == 0
}

// encodeObject writes the struct fields (of a type without JSON methods)
// merged with extra, every key in byte order as encoding/json orders a map.
func encodeObject(fields any, extra map[string]any) ([]byte, error) {
	b, err := json.Marshal(fields)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var named map[string]json.RawMessage
	if err := json.Unmarshal(b, &named); err != nil {
		return nil, err
	}
	all := make(map[string]any, len(named)+len(extra))
	for k, v := range extra {
		all[k] = v
	}
	for k, v := range named {
		all[k] = v
	}
	return json.Marshal(all)
}

// decodeObject decodes the JSON object b (what names it in errors) into
// fields, a pointer to a struct without JSON methods that it first zeroes,
// and returns the keys no field names, or nil.
func decodeObject(b []byte, fields any, what string) (map[string]any, error) {
	v := reflect.ValueOf(fields).Elem()
	v.SetZero()
	if err := json.Unmarshal(b, fields); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		for k := range all {
			// encoding/json matches keys to fields case-insensitively.
			if name != "" && strings.EqualFold(k, name) {
				delete(all, k)
			}
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	return all, nil
}

// cloneJSON deep-copies a value decoded from JSON (objects and arrays are
// the only mutable kinds), so an SDK map shares nothing with the Registry.
func cloneJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = cloneJSON(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = cloneJSON(e)
		}
		return s
	}
	return v
}

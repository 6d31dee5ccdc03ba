package bundler

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
)

// cloneForSwap returns a copy of r whose file, output and metafile maps can
// be changed without touching r, and its metafile split into parts.
func (r *bundleResult) cloneForSwap() (*bundleResult, *rawMetafile, error) {
	raw, err := r.rawParts()
	if err != nil {
		return nil, nil, err
	}
	res := &bundleResult{files: maps.Clone(r.files), js: maps.Clone(r.js), css: maps.Clone(r.css), bridges: r.bridges}
	res.meta.Inputs = maps.Clone(r.meta.Inputs)
	res.meta.Outputs = maps.Clone(r.meta.Outputs)
	parts := &rawMetafile{Inputs: maps.Clone(raw.Inputs), Outputs: maps.Clone(raw.Outputs)}
	if parts.Inputs == nil {
		parts.Inputs = map[string]json.RawMessage{}
	}
	if parts.Outputs == nil {
		parts.Outputs = map[string]json.RawMessage{}
	}
	return res, parts, nil
}

// swapIn replaces widget name's outputs, as old lists them, with those of
// one (a build that included the widget), in r and its metafile parts.
func (r *bundleResult) swapIn(parts *rawMetafile, old *bundleResult, name string, one *bundleResult) error {
	for _, key := range old.widgetOutputs(name) {
		delete(r.meta.Outputs, key)
		delete(parts.Outputs, key)
		delete(r.files, strings.TrimPrefix(key, outBase+"/"))
	}
	for k, v := range one.files {
		r.files[k] = v
	}
	r.js[name] = one.js[name]
	r.css[name] = one.css[name]
	oneRaw, err := one.rawParts()
	if err != nil {
		return err
	}
	for k, v := range one.meta.Outputs {
		r.meta.Outputs[k] = v
		parts.Outputs[k] = oneRaw.Outputs[k]
	}
	maps.Copy(parts.Inputs, oneRaw.Inputs)
	maps.Copy(r.meta.Inputs, one.meta.Inputs)
	return nil
}

// seal records parts as r's metafile.
func (r *bundleResult) seal(parts *rawMetafile) error {
	r.raw = parts
	data, err := json.Marshal(parts)
	if err != nil {
		return fmt.Errorf("encode metafile: %w", err)
	}
	r.rawMeta = string(data)
	return nil
}

// replaceWidgets returns r with the given widgets' outputs taken from one.
func (r *bundleResult) replaceWidgets(one *bundleResult, widgets []*widget) (*bundleResult, error) {
	res, parts, err := r.cloneForSwap()
	if err != nil {
		return nil, err
	}
	for _, w := range widgets {
		if err := res.swapIn(parts, r, w.Config.Name, one); err != nil {
			return nil, err
		}
	}
	return res, res.seal(parts)
}

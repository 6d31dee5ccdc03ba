package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/widgetd/widgetd/bundler/strictjson"
)

// widget.json "provider": the components a component entry is wrapped in
// (componentmount.go), for hook libraries that read a React context (an
// mcp-use, sunpeak or Skybridge-style provider) or Vue plugins.

// Provider is one provider: Use names it ("module#Export", or "module"
// for its default export), Props are the props it is rendered with (Vue:
// the plugin's options).
type Provider struct {
	Use   string          `json:"use"`
	Props json.RawMessage `json:"props,omitempty"`
}

// PropsJS is the provider's props as a JavaScript expression.
func (p Provider) PropsJS() string {
	if len(p.Props) == 0 {
		return "null"
	}
	return string(p.Props)
}

// ProviderList is widget.json "provider": a string, an object {"use",
// "props"}, or a list of them (outermost first).
type ProviderList []Provider

// UnmarshalJSON accepts "module#Export", {"use": …, "props": {…}}, or a
// list of either.
func (p *ProviderList) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var raw []json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil {
			return err
		}
		for _, r := range raw {
			e, err := decodeProvider(r)
			if err != nil {
				return err
			}
			*p = append(*p, e)
		}
		return nil
	}
	e, err := decodeProvider(data)
	if err != nil {
		return err
	}
	*p = ProviderList{e}
	return nil
}

// decodeProvider reads one provider: a string or an object.
func decodeProvider(data json.RawMessage) (Provider, error) {
	var e Provider
	if err := json.Unmarshal(data, &e.Use); err == nil {
		return e, nil
	}
	if err := json.Unmarshal(data, &e); err != nil {
		return e, fmt.Errorf("a provider is \"module#Export\" or {\"use\": \"module#Export\", \"props\": {…}}")
	}
	return e, nil
}

// ProviderSpec is a provider's module (an npm package, or a path relative
// to the widget folder) and the export to use.
type ProviderSpec struct {
	Module, Export string
}

// jsIdentRE is a JavaScript identifier (ASCII), as an export name.
var jsIdentRE = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)

// ParseProvider splits "module#Export" ("module" alone: its default export).
func ParseProvider(s string) (ProviderSpec, bool) {
	mod, exp, hasExport := strings.Cut(s, "#")
	if mod == "" || (hasExport && !jsIdentRE.MatchString(exp)) {
		return ProviderSpec{}, false
	}
	if !hasExport {
		exp = "default"
	}
	return ProviderSpec{Module: mod, Export: exp}, true
}

// checkProvider validates widget.json "provider": script entries only,
// each "module" or "module#Export", props an object.
func (w *Widget) checkProvider(doc *strictjson.Doc) error {
	if len(w.Config.Provider) == 0 {
		return nil
	}
	if w.HTMLEntry {
		return doc.ErrPath("provider", "\"provider\" wraps a component entry, and %s is an HTML entry; wrap the component where your own code mounts it, or make a script that exports the component the entry", w.Config.Entry)
	}
	for i, e := range w.Config.Provider {
		path := "provider"
		if doc.Has("provider[0]") {
			path = fmt.Sprintf("provider[%d]", i)
		}
		if doc.Has(path + ".use") {
			if err := doc.CheckKeys(path, []string{"use", "props"}); err != nil {
				return err
			}
			path += ".use"
		}
		if _, ok := ParseProvider(e.Use); !ok {
			return doc.ErrPath(path, "provider %q must be \"module\" (its default export) or \"module#Export\", e.g. \"@acme/widget-kit#KitProvider\" or \"./Provider.tsx#Provider\"", e.Use)
		}
		if len(e.Props) > 0 && bytes.TrimSpace(e.Props)[0] != '{' {
			return doc.ErrPath(strings.TrimSuffix(path, ".use")+".props", "the props of provider %q must be an object, e.g. {\"appInfo\": {\"name\": \"review\", \"version\": \"1.0.0\"}}", e.Use)
		}
	}
	return nil
}

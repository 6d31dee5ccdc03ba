package typesgen

import (
	"bytes"
	"encoding/json"
	"strings"
)

// docComment is the JSDoc block for s at indent ("" when s says nothing a
// reader needs): title, description, then tags for deprecated, readOnly,
// writeOnly, default, examples and the validation keywords TypeScript
// cannot express (@minimum 0, @format date-time, …).
func docComment(s *Schema, indent string) string {
	if s == nil || s.Bool != nil {
		return ""
	}
	var lines []string
	for _, text := range []string{s.Title, s.Description} {
		if t := strings.TrimSpace(text); t != "" {
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, strings.Split(t, "\n")...)
		}
	}
	tags := docTags(s)
	if len(lines) > 0 && len(tags) > 0 {
		lines = append(lines, "")
	}
	lines = append(lines, tags...)
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		l = strings.TrimRight(strings.ReplaceAll(l, "*/", "*\\/"), " \t\r")
		if l == "" {
			b.WriteString(indent + " *\n")
		} else {
			b.WriteString(indent + " * " + l + "\n")
		}
	}
	b.WriteString(indent + " */\n")
	return b.String()
}

func docTags(s *Schema) []string {
	var tags []string
	if s.Deprecated {
		tags = append(tags, "@deprecated")
	}
	if s.ReadOnly {
		tags = append(tags, "@readOnly")
	}
	if s.WriteOnly {
		tags = append(tags, "@writeOnly")
	}
	if s.Default != nil {
		tags = append(tags, "@default "+compact(s.Default))
	}
	for _, e := range s.Examples {
		tags = append(tags, "@example "+compact(e))
	}
	for _, c := range s.Constraints {
		value := compact(c.Raw)
		var str string
		if json.Unmarshal(c.Raw, &str) == nil && c.Name != "pattern" {
			value = str
		}
		tags = append(tags, "@"+c.Name+" "+value)
	}
	if s.Comment != "" {
		tags = append(tags, "@remarks "+strings.ReplaceAll(s.Comment, "\n", " "))
	}
	return tags
}

// compact is raw JSON on one line.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

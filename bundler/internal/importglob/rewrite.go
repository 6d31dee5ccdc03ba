package importglob

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Rewrite returns src with calls[i] replaced by the object of matches[i]
// (keys in order), each value () => import("./a.ts") or, for an eager
// call, a binding that an import declaration appended to the module
// brings in (imports are hoisted, so appending keeps every line where it
// was). A replacement keeps the line breaks of the call it replaces.
// Bindings are named __widgetd_glob<call>_<file>, the prefix made longer
// until src does not contain it.
func Rewrite(src string, calls []Call, matches [][]Match) string {
	prefix := "__widgetd_glob"
	for strings.Contains(src, prefix) {
		prefix += "_"
	}
	var out, imports strings.Builder
	last := 0
	for i, c := range calls {
		out.WriteString(src[last:c.Start])
		out.WriteString("Object.assign({")
		for j, m := range matches[i] {
			if j > 0 {
				out.WriteString(", ")
			}
			spec := jsString(m.Spec + c.Query)
			out.WriteString(jsString(m.Key) + ": ")
			if c.Eager {
				name := fmt.Sprintf("%s%d_%d", prefix, i, j)
				out.WriteString(name)
				imports.WriteString("\n" + importDeclaration(name, c.Import, spec))
				continue
			}
			out.WriteString("() => import(" + spec + ")")
			if c.Import != "" {
				out.WriteString(".then((m) => m[" + jsString(c.Import) + "])")
			}
		}
		out.WriteString("})")
		out.WriteString(strings.Repeat("\n", strings.Count(src[c.Start:c.End], "\n")))
		last = c.End
	}
	out.WriteString(src[last:])
	out.WriteString(imports.String())
	return out.String()
}

// importDeclaration imports the namespace, the default export or the
// named export of spec as name (options checked that it is an identifier).
func importDeclaration(name, export, spec string) string {
	switch export {
	case "":
		return "import * as " + name + " from " + spec + ";"
	case "default":
		return "import " + name + " from " + spec + ";"
	}
	return "import { " + export + " as " + name + " } from " + spec + ";"
}

// jsString quotes s as a JavaScript string literal (JSON's escaping,
// which also escapes U+2028 and U+2029).
func jsString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

package typesgen

import (
	"fmt"
	"strings"
)

// Declarations returns one exported TypeScript type per entry of the schema
// document's $defs, in document order, where a $ref between entries names
// the other type. It is how a Go program publishes its JSON wire types to
// its own TypeScript from one source (the dev preview's src/gen/wire.ts is
// generated from devserver's structs), with the converter that types tools.
func Declarations(doc []byte) (string, error) {
	s, err := ParseSchema(doc)
	if err != nil {
		return "", fmt.Errorf("parsing the schema document: %w", err)
	}
	if len(s.Defs) == 0 {
		return "", fmt.Errorf("the schema document has no $defs to declare")
	}
	n := &names{taken: map[string]bool{}}
	// The root is the document itself, a holder of $defs: its own type
	// is not declared (the name is one no definition can take).
	decls, err := convert(s, " root", "", n)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, d := range decls[1:] {
		b.WriteString("\n")
		b.WriteString(docComment(d.Doc, ""))
		fmt.Fprintf(&b, "export type %s = %s;\n", d.Name, d.TypeTS)
	}
	return b.String(), nil
}

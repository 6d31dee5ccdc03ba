package typesgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// names hands out the TypeScript names of one generated file, so two
// schemas never declare the same name.
type names struct{ taken map[string]bool }

// unique returns base, or base2, base3, … if base is taken.
func (n *names) unique(base string) string {
	name := base
	for i := 2; n.taken[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	n.taken[name] = true
	return name
}

// declaration is one named TypeScript type the converter produced.
type declaration struct {
	Name   string
	Doc    *Schema
	TypeTS string
}

// converter turns one schema document (a tool's inputSchema or
// outputSchema) into TypeScript: the root type and a named type per $defs
// entry, named prefix+DefName.
type converter struct {
	names    *names
	prefix   string
	root     *Schema
	rootName string
	defNames map[*Schema]string
	anchors  map[string]*Schema
	decls    []declaration
	inline   map[*Schema]bool
	// expanded counts the subschemas references inlined; past
	// maxExpansions the rest become unknown (a few hundred bytes of
	// pointer references could otherwise expand exponentially).
	expanded int
}

// maxExpansions bounds the inline expansions of one schema document.
const maxExpansions = 10000

// ErrTooLarge means a schema's references inline too many subschemas.
var ErrTooLarge = errors.New("the schema's $ref references expand to more than 10000 subschemas; name shared subschemas in $defs")

// convert declares rootName as the TypeScript type of the schema document
// doc, plus one type per $defs entry (named prefix + the entry's name). It
// returns the declarations in order: the root first, then the definitions
// in document order.
func convert(doc *Schema, rootName, prefix string, n *names) ([]declaration, error) {
	c := &converter{names: n, prefix: prefix, root: doc, rootName: rootName,
		defNames: map[*Schema]string{}, anchors: map[string]*Schema{}, inline: map[*Schema]bool{}}
	c.index(doc)
	root := declaration{Name: rootName, Doc: doc, TypeTS: c.expr(doc, "")}
	if c.expanded > maxExpansions {
		return nil, ErrTooLarge
	}
	return append([]declaration{root}, c.decls...), nil
}

// index names every $defs entry and records every $anchor and
// $dynamicAnchor, before any reference is followed.
func (c *converter) index(s *Schema) {
	if s == nil || s.Bool != nil {
		return
	}
	if s.Anchor != "" {
		c.anchors[s.Anchor] = s
	}
	if s.DynamicAnchor != "" {
		c.anchors[s.DynamicAnchor] = s
	}
	for _, d := range s.Defs {
		if _, ok := c.defNames[d.Schema]; !ok {
			c.defNames[d.Schema] = c.names.unique(c.prefix + pascal(d.Name))
		}
	}
	for _, sub := range s.children() {
		c.index(sub)
	}
	if s == c.root {
		c.declareDefs(s)
	}
}

// declareDefs converts every named definition once, in document order
// (nested $defs after their parent's).
func (c *converter) declareDefs(s *Schema) {
	var walk func(*Schema)
	done := map[*Schema]bool{}
	walk = func(s *Schema) {
		if s == nil || s.Bool != nil {
			return
		}
		for _, d := range s.Defs {
			if !done[d.Schema] {
				done[d.Schema] = true
				c.decls = append(c.decls, declaration{Name: c.defNames[d.Schema], Doc: d.Schema, TypeTS: c.expr(d.Schema, "")})
			}
		}
		for _, sub := range s.children() {
			walk(sub)
		}
	}
	walk(s)
}

// children lists every subschema of s.
func (s *Schema) children() []*Schema {
	var out []*Schema
	for _, l := range [][]Property{s.Properties, s.PatternProperties, s.Defs} {
		for _, p := range l {
			out = append(out, p.Schema)
		}
	}
	for _, one := range []*Schema{s.AdditionalProperties, s.UnevaluatedProps, s.Items, s.AdditionalItems, s.Not} {
		if one != nil {
			out = append(out, one)
		}
	}
	for _, l := range [][]*Schema{s.ItemsArray, s.PrefixItems, s.AllOf, s.AnyOf, s.OneOf} {
		out = append(out, l...)
	}
	return out
}

// expr is the TypeScript type of s; indent is the indentation of the line
// the type starts on (object members go one level deeper).
func (c *converter) expr(s *Schema, indent string) string {
	if s == nil {
		return "unknown"
	}
	if s.Bool != nil {
		if *s.Bool {
			return "unknown"
		}
		return "never"
	}
	var parts []string
	if ref := c.refExpr(s, indent); ref != "" {
		parts = append(parts, ref)
	}
	if own := c.ownExpr(s, indent); own != "" {
		parts = append(parts, own)
	}
	for _, sub := range s.AllOf {
		parts = append(parts, c.expr(sub, indent))
	}
	for _, alts := range [][]*Schema{s.AnyOf, s.OneOf} {
		if len(alts) > 0 {
			parts = append(parts, c.union(alts, indent))
		}
	}
	return intersection(parts)
}

func (c *converter) union(alts []*Schema, indent string) string {
	var ts []string
	for _, a := range alts {
		ts = append(ts, c.expr(a, indent))
	}
	return join(ts, " | ")
}

// join joins distinct types with sep, parenthesising members that contain
// a union or intersection themselves.
func join(ts []string, sep string) string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if seen[t] {
			continue
		}
		seen[t] = true
		if len(ts) > 1 && needsParens(t) {
			t = "(" + t + ")"
		}
		out = append(out, t)
	}
	return strings.Join(out, sep)
}

func intersection(parts []string) string {
	var kept []string
	for _, p := range parts {
		if p != "unknown" {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return "unknown"
	}
	return join(kept, " & ")
}

// needsParens reports whether t has a top-level | or & (outside braces,
// brackets, parentheses, strings and comments).
func needsParens(t string) bool {
	depth := 0
	inStr := false
	for i := 0; i < len(t); i++ {
		ch := t[i]
		switch {
		case inStr:
			if ch == '\\' {
				i++
			} else if ch == '"' {
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '{' || ch == '[' || ch == '(':
			depth++
		case ch == '}' || ch == ']' || ch == ')':
			depth--
		case depth == 0 && (ch == '|' || ch == '&'):
			return true
		}
	}
	return false
}

// refExpr is the type $ref or $dynamicRef names ("" without one).
func (c *converter) refExpr(s *Schema, indent string) string {
	ref := s.Ref
	if ref == "" {
		ref = s.DynamicRef
	}
	if ref == "" {
		return ""
	}
	target := c.resolve(ref)
	switch {
	case target == nil:
		return "unknown"
	case target == c.root:
		return c.rootName
	case c.defNames[target] != "":
		return c.defNames[target]
	case c.inline[target]:
		return "unknown" // a cycle through a pointer that names no definition
	}
	if c.expanded++; c.expanded > maxExpansions {
		return "unknown"
	}
	c.inline[target] = true
	defer delete(c.inline, target)
	return c.expr(target, indent)
}

// resolve finds the subschema a reference inside this document names:
// "#", "#/json/pointer" or "#anchor". Other documents resolve to nil.
func (c *converter) resolve(ref string) *Schema {
	if !strings.HasPrefix(ref, "#") {
		return nil
	}
	frag := ref[1:]
	if frag == "" {
		return c.root
	}
	if !strings.HasPrefix(frag, "/") {
		return c.anchors[frag]
	}
	cur := c.root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		cur = cur.step(tok)
		if cur == nil {
			return nil
		}
	}
	return cur
}

// choose is the pseudo-schema of a two-token step: the next token picks
// the first of n members whose key is that token (nil when none is).
func choose(n int, key func(int) string, member func(int) *Schema) *Schema {
	return &Schema{pending: func(tok string) *Schema {
		for i := range n {
			if key(i) == tok {
				return member(i)
			}
		}
		return nil
	}}
}

// step follows one JSON pointer token below s ("$defs", then a name; or
// "properties", then a name; "items"; "allOf", then an index; …). It
// handles two-token steps by returning a pseudo-schema for the map.
func (s *Schema) step(tok string) *Schema {
	if s.pending != nil {
		return s.pending(tok)
	}
	named := func(l []Property) *Schema {
		return choose(len(l), func(i int) string { return l[i].Name }, func(i int) *Schema { return l[i].Schema })
	}
	indexed := func(l []*Schema) *Schema {
		return choose(len(l), strconv.Itoa, func(i int) *Schema { return l[i] })
	}
	switch tok {
	case "$defs", "definitions":
		return named(s.Defs)
	case "properties":
		return named(s.Properties)
	case "patternProperties":
		return named(s.PatternProperties)
	case "items":
		if s.Items == nil && len(s.ItemsArray) > 0 {
			return indexed(s.ItemsArray)
		}
		return s.Items
	case "prefixItems":
		return indexed(s.PrefixItems)
	case "allOf":
		return indexed(s.AllOf)
	case "anyOf":
		return indexed(s.AnyOf)
	case "oneOf":
		return indexed(s.OneOf)
	case "additionalProperties":
		return s.AdditionalProperties
	case "not":
		return s.Not
	}
	return nil
}

// ownExpr is the type of s's own keywords: const, enum, or its types.
func (c *converter) ownExpr(s *Schema, indent string) string {
	if s.Const != nil {
		return literal(s.Const, indent)
	}
	if s.Enum != nil {
		var ts []string
		for _, v := range s.Enum {
			ts = append(ts, literal(v, indent))
		}
		if len(ts) == 0 {
			return "never"
		}
		return join(ts, " | ")
	}
	types := nullLast(s.Types)
	if len(types) == 0 {
		types = impliedTypes(s)
	}
	var ts []string
	for _, t := range types {
		ts = append(ts, c.typeExpr(s, t, indent))
	}
	return join(ts, " | ")
}

// impliedTypes is the type a schema without "type" has from its keywords
// (properties imply an object, items an array).
func impliedTypes(s *Schema) []string {
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties != nil || len(s.PatternProperties) > 0 || len(s.Required) > 0:
		return []string{"object"}
	case s.Items != nil || len(s.PrefixItems) > 0 || len(s.ItemsArray) > 0:
		return []string{"array"}
	}
	return nil
}

func (c *converter) typeExpr(s *Schema, t, indent string) string {
	switch t {
	case "string", "boolean", "null":
		return t
	case "number", "integer":
		return "number"
	case "array":
		return c.arrayExpr(s, indent)
	case "object":
		return c.objectExpr(s, indent)
	}
	return "unknown"
}

func (c *converter) arrayExpr(s *Schema, indent string) string {
	prefix := s.PrefixItems
	rest := s.Items
	if len(s.ItemsArray) > 0 { // draft-07 tuple form
		prefix, rest = s.ItemsArray, s.AdditionalItems
	}
	if len(prefix) == 0 {
		elem := c.expr(rest, indent)
		if needsParens(elem) {
			elem = "(" + elem + ")"
		}
		return elem + "[]"
	}
	var ts []string
	for _, p := range prefix {
		ts = append(ts, c.expr(p, indent))
	}
	if rest == nil || rest.Bool == nil || *rest.Bool {
		elem := c.expr(rest, indent)
		if needsParens(elem) {
			elem = "(" + elem + ")"
		}
		ts = append(ts, "..."+elem+"[]")
	}
	return "[" + strings.Join(ts, ", ") + "]"
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// objectExpr is an object type literal: one member per property (optional
// unless required), and an index signature when additionalProperties or
// patternProperties allow more.
func (c *converter) objectExpr(s *Schema, indent string) string {
	inner := indent + "  "
	var b strings.Builder
	var memberTypes []string
	optional := false
	declared := map[string]bool{}
	for _, p := range s.Properties {
		declared[p.Name] = true
		t := c.expr(p.Schema, inner)
		memberTypes = append(memberTypes, t)
		req := s.isRequired(p.Name)
		optional = optional || !req
		b.WriteString(docComment(p.Schema, inner))
		b.WriteString(inner)
		if p.Schema.ReadOnly {
			b.WriteString("readonly ")
		}
		b.WriteString(propertyName(p.Name))
		if !req {
			b.WriteString("?")
		}
		b.WriteString(": " + t + ";\n")
	}
	for _, r := range s.Required {
		if !declared[r] {
			declared[r] = true
			memberTypes = append(memberTypes, "unknown")
			b.WriteString(inner + propertyName(r) + ": unknown;\n")
		}
	}
	if index := c.indexType(s, inner, memberTypes, optional); index != "" {
		b.WriteString(inner + "[key: string]: " + index + ";\n")
	}
	if b.Len() == 0 {
		if closed(s) {
			return "Record<string, never>"
		}
		return "{}"
	}
	return "{\n" + b.String() + indent + "}"
}

// indexType is the value type of the object's index signature, "" for none.
// TypeScript requires it to cover the declared members too.
func (c *converter) indexType(s *Schema, indent string, members []string, optional bool) string {
	var extra []string
	if ap := s.AdditionalProperties; ap != nil && (ap.Bool == nil || *ap.Bool) {
		extra = append(extra, c.expr(ap, indent))
	}
	for _, p := range s.PatternProperties {
		extra = append(extra, c.expr(p.Schema, indent))
	}
	if len(extra) == 0 {
		if len(members) == 0 && !closed(s) {
			return "unknown"
		}
		return ""
	}
	all := append(extra, members...)
	if len(members) > 0 && optional {
		all = append(all, "undefined")
	}
	for _, t := range all {
		if t == "unknown" {
			return "unknown"
		}
	}
	return join(all, " | ")
}

// closed reports whether the object allows no properties beyond those it
// declares.
func closed(s *Schema) bool {
	isFalse := func(x *Schema) bool { return x != nil && x.Bool != nil && !*x.Bool }
	return isFalse(s.AdditionalProperties) || isFalse(s.UnevaluatedProps)
}

func propertyName(name string) string {
	if identifier.MatchString(name) {
		return name
	}
	q, _ := json.Marshal(name)
	return string(q)
}

// literal is the TypeScript literal type of a JSON value.
func literal(raw json.RawMessage, indent string) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "unknown"
	}
	return literalOf(v, indent)
}

func literalOf(v any, indent string) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprint(v)
	case json.Number:
		return v.String()
	case string:
		q, _ := json.Marshal(v)
		return string(q)
	case []any:
		var ts []string
		for _, e := range v {
			ts = append(ts, literalOf(e, indent))
		}
		return "[" + strings.Join(ts, ", ") + "]"
	case map[string]any:
		var ts []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			ts = append(ts, propertyName(k)+": "+literalOf(v[k], indent))
		}
		return "{ " + strings.Join(ts, "; ") + " }"
	}
	return "unknown"
}

// pascal turns a tool or definition name ("get-time", "day_of_week") into
// a TypeScript type name ("GetTime", "DayOfWeek").
func pascal(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			if up && r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		default:
			up = true
		}
	}
	s := b.String()
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "T" + s
	}
	return s
}

// nullLast orders a type list with "null" at the end (go-sdk lists it
// first for pointers and slices; T | null reads better).
func nullLast(types []string) []string {
	out := make([]string, 0, len(types))
	null := false
	for _, t := range types {
		if t == "null" {
			null = true
			continue
		}
		out = append(out, t)
	}
	if null {
		out = append(out, "null")
	}
	return out
}

// Package strictjson reads widgetd's JSON files (widget.json, widgetd.json,
// fixtures) strictly and with positions: one UTF-8 object, no duplicate or
// unknown keys, bounded nesting, and every problem reported as a
// file:line:col diagnostic at the key or value at fault.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/widgetd/widgetd/diag"
)

// UTF8BOM is the UTF-8 byte order mark some editors start a file with;
// Parse skips it, and so does the build's HTML reader. A constant, so no
// importer can change what the others skip.
const UTF8BOM = "\xEF\xBB\xBF"

// maxJSONDepth is how deeply objects and arrays may nest in a JSON document
// read with positions. No widget config or fixture needs more; the limit
// keeps a hostile file from costing more than its size.
const maxJSONDepth = 1000

// Doc is a JSON document with the byte offset of every object member and
// array element, so that config errors can point at file:line:col.
//
// The index is a tree of nodes (linked by parent, first child and next
// sibling), not a map of path strings: a path is as long as the nesting is
// deep, so storing one per value costs memory quadratic in the depth. Paths
// are resolved by walking the tree (lookup) and built only for a message
// (pathOf). Time and memory stay linear in the document's size.
type Doc struct {
	// File is the document's name as messages show it.
	File string
	// data is the document without a leading byte order mark; offsets and
	// columns count from after it, as editors show them.
	data  []byte
	nodes []jsonNode // nodes[0] is the root object
}

// jsonNode is the root object, one object member or one array element.
type jsonNode struct {
	// key is the member's name ("" for array elements and the root).
	key string
	// off is the offset of the member's key, or of the element's value.
	off int
	// parent, first child and next sibling are node indexes; -1 for none.
	parent, first, last, next int32
	// index is the element's position in its array.
	index int32
	// kind is '{' or '[' when the value is an object or array, else 0.
	kind byte
}

// Parse checks that data is one well-formed UTF-8 JSON object, nested
// at most maxJSONDepth deep, and indexes it. A leading UTF-8 byte order mark
// is skipped.
func Parse(file string, data []byte) (*Doc, error) {
	data = bytes.TrimPrefix(data, []byte(UTF8BOM))
	if err := CheckUTF8(file, data); err != nil {
		return nil, err
	}
	doc := &Doc{File: file, data: data}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, doc.syntaxErr(err, dec)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, doc.ErrAt(0, "the file must hold a JSON object ({ … })")
	}
	w := &jsonWalker{doc: doc, dec: dec, seen: map[memberKey]struct{}{}}
	root := doc.add(-1, jsonNode{kind: '{'})
	if err := w.object(root, 1); err != nil {
		return nil, err
	}
	after := int(dec.InputOffset())
	for after < len(data) && strings.IndexByte(" \t\r\n", data[after]) >= 0 {
		after++
	}
	if after < len(data) {
		return nil, doc.ErrAt(after, "unexpected content after the closing }")
	}
	return doc, nil
}

// memberKey names one member of one object, to find duplicate keys.
type memberKey struct {
	object int32
	key    string
}

// jsonWalker reads a document's tokens into its node tree.
type jsonWalker struct {
	doc  *Doc
	dec  *json.Decoder
	seen map[memberKey]struct{}
}

// add appends n as the last child of parent (or as the root when parent is
// -1) and returns its index.
func (doc *Doc) add(parent int32, n jsonNode) int32 {
	i := int32(len(doc.nodes))
	n.parent, n.first, n.last, n.next = parent, -1, -1, -1
	doc.nodes = append(doc.nodes, n)
	if parent >= 0 {
		p := &doc.nodes[parent]
		if p.last >= 0 {
			doc.nodes[p.last].next = i
		} else {
			p.first = i
		}
		p.last = i
	}
	return i
}

// object reads the members of the object node obj (its { already read) at
// nesting depth.
func (w *jsonWalker) object(obj int32, depth int) error {
	doc, dec := w.doc, w.dec
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return doc.syntaxErr(err, dec)
		}
		key, _ := tok.(string)
		end := int(dec.InputOffset())
		start := bytes.LastIndexByte(doc.data[:end], '"')
		if start > 0 {
			start = bytes.LastIndexByte(doc.data[:start], '"')
		}
		mk := memberKey{obj, key}
		if _, dup := w.seen[mk]; dup {
			return doc.ErrAt(start, "field %q appears twice; keep one", key)
		}
		w.seen[mk] = struct{}{}
		if err := w.value(doc.add(obj, jsonNode{key: key, off: start}), depth); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return doc.syntaxErr(err, dec)
	}
	return nil
}

// value reads the value of node n, a member or element of a container at
// nesting depth.
func (w *jsonWalker) value(n int32, depth int) error {
	doc, dec := w.doc, w.dec
	tok, err := dec.Token()
	if err != nil {
		return doc.syntaxErr(err, dec)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if depth >= maxJSONDepth {
		return doc.ErrAt(int(dec.InputOffset())-1, "objects and arrays are nested more than %d levels deep; no widget config or fixture needs that, so flatten the data", maxJSONDepth)
	}
	doc.nodes[n].kind = byte(d)
	if d == '{' {
		return w.object(n, depth+1)
	}
	for i := int32(0); dec.More(); i++ {
		// InputOffset is the end of the previous token; skip separators.
		off := int(dec.InputOffset())
		for off < len(doc.data) && strings.IndexByte(" \t\r\n,", doc.data[off]) >= 0 {
			off++
		}
		if err := w.value(doc.add(n, jsonNode{off: off, index: i}), depth+1); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return doc.syntaxErr(err, dec)
	}
	return nil
}

// CheckUTF8 reports the first byte of data that is not UTF-8 as an error at
// display:line:col (the column in bytes), so an author finds the byte their
// editor saved in another encoding.
func CheckUTF8(display string, data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	l, c, _ := diag.LineCol(data, off)
	return diag.Errorf(display, l, c, "file is not valid UTF-8 (bad byte 0x%02x); save it as UTF-8", data[off])
}

// syntaxErr places a decoder error. A } or ] right after a comma is
// reported at the comma as a trailing comma, the usual slip when an item is
// deleted from the end of a list.
func (doc *Doc) syntaxErr(err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := int(se.Offset) - 1
		for off >= 0 && off < len(doc.data) && strings.IndexByte(" \t\r\n,", doc.data[off]) >= 0 {
			off++
		}
		if comma := doc.commaBefore(off); comma >= 0 {
			return doc.ErrAt(comma, "invalid JSON: trailing comma; JSON allows no comma after the last item of an object or array, so remove it")
		}
		return doc.ErrAt(off, "invalid JSON: %s", strings.TrimPrefix(se.Error(), "json: "))
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return doc.ErrAt(len(doc.data), "invalid JSON: unexpected end of file")
	}
	return doc.ErrAt(int(dec.InputOffset()), "invalid JSON: %v", err)
}

// commaBefore returns the offset of the comma before the } or ] at off
// (only whitespace between), or -1.
func (doc *Doc) commaBefore(off int) int {
	if off < 0 || off >= len(doc.data) || (doc.data[off] != '}' && doc.data[off] != ']') {
		return -1
	}
	i := off - 1
	for i >= 0 && strings.IndexByte(" \t\r\n", doc.data[i]) >= 0 {
		i--
	}
	if i >= 0 && doc.data[i] == ',' {
		return i
	}
	return -1
}

// lookup returns the node a path names: member names joined by "." and
// element indexes in brackets ("csp.connectDomains[1]"; "" is the root).
func (doc *Doc) lookup(path string) (int32, bool) {
	return doc.resolve(0, path, true)
}

// resolve follows rest from node n; first is true before the first segment
// (which has no leading "."). A member name may itself hold "." or "[", so
// every member whose name fits is tried.
func (doc *Doc) resolve(n int32, rest string, first bool) (int32, bool) {
	if rest == "" {
		return n, true
	}
	node := &doc.nodes[n]
	if rest[0] == '[' && node.kind == '[' {
		end := strings.IndexByte(rest, ']')
		i, err := strconv.Atoi(rest[1:max(end, 1)])
		if end < 0 || err != nil {
			return -1, false
		}
		for c := node.first; c >= 0; c = doc.nodes[c].next {
			if int(doc.nodes[c].index) == i {
				return doc.resolve(c, rest[end+1:], false)
			}
		}
		return -1, false
	}
	if node.kind != '{' {
		return -1, false
	}
	if !first {
		if rest[0] != '.' {
			return -1, false
		}
		rest = rest[1:]
	}
	for c := node.first; c >= 0; c = doc.nodes[c].next {
		k := doc.nodes[c].key
		if !strings.HasPrefix(rest, k) || (len(rest) > len(k) && rest[len(k)] != '.' && rest[len(k)] != '[') {
			continue
		}
		if found, ok := doc.resolve(c, rest[len(k):], false); ok {
			return found, true
		}
	}
	return -1, false
}

// pathOf is the path of node n, as lookup reads it.
func (doc *Doc) pathOf(n int32) string {
	var parts []string
	for ; n > 0; n = doc.nodes[n].parent {
		node := &doc.nodes[n]
		switch {
		case doc.nodes[node.parent].kind == '[':
			parts = append(parts, "["+strconv.Itoa(int(node.index))+"]")
		case node.parent == 0:
			parts = append(parts, node.key)
		default:
			parts = append(parts, "."+node.key)
		}
	}
	slices.Reverse(parts)
	return strings.Join(parts, "")
}

// Has reports whether the document sets the value at path.
func (doc *Doc) Has(path string) bool {
	_, ok := doc.lookup(path)
	return ok
}

// memberKeys lists the keys of the object at path, in document order (none
// when path is not an object).
func (doc *Doc) memberKeys(path string) []string {
	n, ok := doc.lookup(path)
	if !ok || doc.nodes[n].kind != '{' {
		return nil
	}
	var keys []string
	for c := doc.nodes[n].first; c >= 0; c = doc.nodes[c].next {
		keys = append(keys, doc.nodes[c].key)
	}
	return keys
}

// ErrAt returns a diagnostic at byte offset off.
func (doc *Doc) ErrAt(off int, format string, args ...any) *diag.Error {
	l, c, src := diag.LineCol(doc.data, off)
	e := diag.Errorf(doc.File, l, c, format, args...)
	e.Diagnostics[0].Source = src
	return e
}

// ErrPath returns a diagnostic at the key or element named by path (or at the
// start of the file when path is not present).
func (doc *Doc) ErrPath(path string, format string, args ...any) *diag.Error {
	off := 0
	if n, ok := doc.lookup(path); ok {
		off = doc.nodes[n].off
	}
	return doc.ErrAt(off, format, args...)
}

// CheckKeys reports the first key of the object at path that is not in allowed.
func (doc *Doc) CheckKeys(path string, allowed []string) error {
	for _, k := range doc.memberKeys(path) {
		if indexOf(allowed, k) >= 0 {
			continue
		}
		p := k
		if path != "" {
			p = path + "." + k
		}
		where := "widget config"
		if path != "" {
			where = fmt.Sprintf("%q", path)
		}
		msg := fmt.Sprintf("unknown field %q in %s", k, where)
		if s := closest(k, allowed); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		} else {
			sorted := append([]string(nil), allowed...)
			sort.Strings(sorted)
			msg += "; allowed: " + strings.Join(sorted, ", ")
		}
		return doc.ErrPath(p, "%s", msg)
	}
	return nil
}

// Decode unmarshals the document into v, mapping type errors to positions.
func (doc *Doc) Decode(v any) error {
	err := json.Unmarshal(doc.data, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		off := int(te.Offset)
		if n, ok := doc.lookup(field); ok {
			off = doc.nodes[n].off
		}
		return doc.ErrAt(off, "field %q: expected %s, got JSON %s", field, goTypeToJSON(te.Type.String()), te.Value)
	}
	if err != nil {
		return doc.ErrAt(0, "%v", err)
	}
	return nil
}

func goTypeToJSON(t string) string {
	switch {
	case t == "string":
		return "a string"
	case t == "bool" || t == "*bool":
		return "true or false"
	case strings.HasPrefix(t, "[]"):
		return "an array of " + strings.TrimSuffix(goTypeToJSON(t[2:]), "")
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "*int"):
		return "a whole number"
	default:
		return "an object"
	}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// closest returns the candidate within a small edit distance of s, or "".
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

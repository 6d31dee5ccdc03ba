package bundler

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonDoc is a JSON document with the byte offset of every object key and
// array element, so that config errors can point at file:line:col.
type jsonDoc struct {
	file string
	data []byte
	// pos maps a path ("csp.connectDomains[1]", "name") to the offset of its
	// key (objects) or value (array elements).
	pos map[string]int
	// keys maps an object path ("" for the root) to its keys, in order.
	keys map[string][]string
}

// parseJSONDoc checks that data is one well-formed UTF-8 JSON object and
// indexes it.
func parseJSONDoc(file string, data []byte) (*jsonDoc, error) {
	if err := checkUTF8(file, data); err != nil {
		return nil, err
	}
	doc := &jsonDoc{file: file, data: data, pos: map[string]int{}, keys: map[string][]string{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, doc.syntaxErr(err, dec)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, doc.errAt(0, "the file must hold a JSON object ({ … })")
	}
	if err := doc.walkObject(dec, ""); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, doc.errAt(int(dec.InputOffset()), "unexpected content after the closing }")
	}
	return doc, nil
}

// checkUTF8 reports the first byte of data that is not UTF-8 as an error at
// display:line:col (the column in bytes), so an author finds the byte their
// editor saved in another encoding.
func checkUTF8(display string, data []byte) error {
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
	l, c, _ := lineCol(data, off)
	return diagErr(display, l, c, "file is not valid UTF-8 (bad byte 0x%02x); save it as UTF-8", data[off])
}

func (doc *jsonDoc) syntaxErr(err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := int(se.Offset) - 1
		for off >= 0 && off < len(doc.data) && strings.IndexByte(" \t\r\n,", doc.data[off]) >= 0 {
			off++
		}
		return doc.errAt(off, "invalid JSON: %s", strings.TrimPrefix(se.Error(), "json: "))
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return doc.errAt(len(doc.data), "invalid JSON: unexpected end of file")
	}
	return doc.errAt(int(dec.InputOffset()), "invalid JSON: %v", err)
}

func (doc *jsonDoc) walkObject(dec *json.Decoder, path string) error {
	doc.keys[path] = []string{}
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
		p := key
		if path != "" {
			p = path + "." + key
		}
		if _, dup := doc.pos[p]; dup {
			return doc.errAt(start, "field %q appears twice; keep one", key)
		}
		doc.pos[p] = start
		doc.keys[path] = append(doc.keys[path], key)
		if err := doc.walkValue(dec, p); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return doc.syntaxErr(err, dec)
	}
	return nil
}

func (doc *jsonDoc) walkValue(dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return doc.syntaxErr(err, dec)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '{':
		return doc.walkObject(dec, path)
	case '[':
		for i := 0; dec.More(); i++ {
			p := path + "[" + strconv.Itoa(i) + "]"
			// InputOffset is the end of the previous token; skip separators.
			off := int(dec.InputOffset())
			for off < len(doc.data) && strings.IndexByte(" \t\r\n,", doc.data[off]) >= 0 {
				off++
			}
			doc.pos[p] = off
			if err := doc.walkValue(dec, p); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return doc.syntaxErr(err, dec)
		}
	}
	return nil
}

// errAt returns a diagnostic at byte offset off.
func (doc *jsonDoc) errAt(off int, format string, args ...any) *Error {
	l, c, src := lineCol(doc.data, off)
	e := diagErr(doc.file, l, c, format, args...)
	e.Diagnostics[0].Source = src
	return e
}

// errPath returns a diagnostic at the key or element named by path (or at the
// start of the file when path is not present).
func (doc *jsonDoc) errPath(path string, format string, args ...any) *Error {
	off, ok := doc.pos[path]
	if !ok {
		off = 0
	}
	return doc.errAt(off, format, args...)
}

// checkKeys reports the first key of the object at path that is not in allowed.
func (doc *jsonDoc) checkKeys(path string, allowed []string) error {
	for _, k := range doc.keys[path] {
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
		return doc.errPath(p, "%s", msg)
	}
	return nil
}

// decode unmarshals the document into v, mapping type errors to positions.
func (doc *jsonDoc) decode(v any) error {
	err := json.Unmarshal(doc.data, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		off, ok := doc.pos[field]
		if !ok {
			off = int(te.Offset)
		}
		return doc.errAt(off, "field %q: expected %s, got JSON %s", field, goTypeToJSON(te.Type.String()), te.Value)
	}
	if err != nil {
		return doc.errAt(0, "%v", err)
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

// Package jstransform holds the build's source-to-source rewrites of
// JavaScript modules before esbuild parses them, each keeping every line in
// place so positions in messages and source maps stay true: namespace
// imports for packages that re-export a namespace (zod), member namespaces
// read through one (core.util.x), classes whose static blocks only brand
// them (the MCP SDK) and top-level data and zod schemas (puredata.go),
// both marked pure so an unused one is dropped. The bundler's plugins call
// it; it knows nothing of a build.
package jstransform

import (
	"bytes"
	"sort"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// The source transforms before esbuild (nsimport.go, pureclass.go) decide
// with a real JavaScript parser (tdewolff/parse's js package, which minify
// already brings in), never by pattern matching on text. That parser keeps
// no positions, but every name and string it stores is a slice of the
// buffer it parsed, so a token's offset in the text is known exactly by
// identity, not by looking for its text: jsModule.offset.

// jsModule is a module's text parsed as JavaScript.
type jsModule struct {
	buf []byte
	ast *js.AST
}

// parseJSModule parses src as an ES module; ok is false when it does not
// parse (TypeScript, JSX, or syntax the parser does not know).
func parseJSModule(src string) (m jsModule, ok bool) {
	defer func() {
		if recover() != nil { // a parser bug must not end the build: the module is used as written
			m, ok = jsModule{}, false
		}
	}()
	// One spare byte of capacity: the parser's input appends a NUL and,
	// with room for it, keeps this buffer instead of copying it, so the
	// tokens in the tree point into buf.
	buf := make([]byte, len(src), len(src)+1)
	copy(buf, src)
	ast, err := js.Parse(parse.NewInputBytes(buf), js.Options{})
	if err != nil || ast == nil {
		return jsModule{}, false
	}
	return jsModule{buf: buf[:len(src)], ast: ast}, true
}

// offset returns where the token tok (a slice the parser took from m.buf)
// starts in the text; ok is false when tok is not such a slice (the parser
// made it up). It looks at each place tok's text occurs and takes the one
// whose first byte is tok's first byte, the same memory.
func (m jsModule) offset(tok []byte) (int, bool) {
	if len(tok) == 0 {
		return 0, false
	}
	for from := 0; from < len(m.buf); {
		i := bytes.Index(m.buf[from:], tok)
		if i < 0 {
			return 0, false
		}
		if &m.buf[from+i] == &tok[0] {
			return from + i, true
		}
		from += i + 1
	}
	return 0, false
}

// tokenReader reads the significant tokens of a text with tdewolff's
// lexer, knowing each one's offset and whether a line break came before
// it. It never asks the lexer for a regular expression, so it is only
// used where none can start: inside import and export clauses, and in a
// module's import prologue.
type tokenReader struct {
	l      *js.Lexer
	off    int // offset of the next byte the lexer reads
	pushed *readToken
	ended  bool // the lexer returned its error token (end of text): never call it again
}

// readToken is one significant token.
type readToken struct {
	tt      js.TokenType
	text    string
	at      int
	newline bool // a line terminator comes before it
}

func newTokenReader(src string, start int) *tokenReader {
	return &tokenReader{l: js.NewLexer(parse.NewInputString(src[start:])), off: start}
}

// next returns the next token that is not white space or a comment; at
// the end of the text (or on text the lexer refuses) its type is
// js.ErrorToken.
func (r *tokenReader) next() readToken {
	if r.pushed != nil {
		t := *r.pushed
		r.pushed = nil
		return t
	}
	newline := false
	for !r.ended {
		tt, data := r.l.Next()
		at := r.off
		r.off += len(data)
		switch tt {
		case js.WhitespaceToken, js.CommentToken:
		case js.LineTerminatorToken, js.CommentLineTerminatorToken:
			newline = true
		case js.ErrorToken:
			r.ended = true
		default:
			return readToken{tt: tt, text: string(data), at: at, newline: newline}
		}
	}
	return readToken{tt: js.ErrorToken, at: r.off, newline: newline}
}

// declaredValue returns a reader of src's tokens from just after "NAME ="
// in the declaration of name, whose token the parser located; ok is false
// when the text there is not that.
func (m jsModule) declaredValue(src string, name *js.Var) (*tokenReader, bool) {
	at, ok := m.offset(name.Data)
	if !ok {
		return nil, false
	}
	r := newTokenReader(src, at)
	if t := r.next(); t.text != string(name.Data) {
		return nil, false
	}
	if eq := r.next(); eq.tt != js.EqToken {
		return nil, false
	}
	return r, true
}

// unread makes t the token next returns again (one token of look-ahead).
func (r *tokenReader) unread(t readToken) { r.pushed = &t }

// unusedName returns name, made longer until src does not contain it.
func unusedName(src, name string) string {
	for strings.Contains(src, name) {
		name += "_"
	}
	return name
}

// textEdit replaces remove bytes at offset at with insert.
type textEdit struct {
	at, remove int
	insert     string
}

// applyChecked applies edits to src and keeps the result only when same
// accepts it (the rewrite's check that the re-parsed module is what it
// meant to write); with no edits, or edits that do not apply or check, src
// is returned unchanged.
func applyChecked(src string, edits []textEdit, same func(out string) bool) (string, bool) {
	if len(edits) == 0 {
		return src, false
	}
	out, ok := applyEdits(src, edits)
	if !ok || !same(out) {
		return src, false
	}
	return out, true
}

// applyEdits applies edits to src. Insertions at one offset keep the order
// they were given in. Edits that overlap (or fall outside src) cannot all
// be right, so it applies none of them and reports false; the caller keeps
// the module as it was.
func applyEdits(src string, edits []textEdit) (string, bool) {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at < edits[j].at })
	var sb strings.Builder
	last := 0
	for _, e := range edits {
		if e.at < last || e.remove < 0 || e.at+e.remove > len(src) {
			return src, false
		}
		sb.WriteString(src[last:e.at])
		sb.WriteString(e.insert)
		last = e.at + e.remove
	}
	sb.WriteString(src[last:])
	return sb.String(), true
}

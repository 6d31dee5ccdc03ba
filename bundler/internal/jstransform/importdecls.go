package jstransform

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// importDecl is a static import declaration with value bindings, located
// in its module's text so that a rewrite can edit exactly its tokens.
type importDecl struct {
	namespace string // the local name of import * as, "" if none
	spec      string // the specifier, unquoted
	quoted    string // the specifier as written, quotes included
	after     int    // offset just after the specifier's closing quote
	bindings  []importBinding
}

// importBinding is one value binding of an import declaration.
type importBinding struct {
	imported string // the imported name; "default" for a default import
	local    string
	at       int    // offset of the token that names the local binding
	token    string // that token's text
	renamed  bool   // the token is the local name alone (default, or after "as")
}

// moduleImports returns the static imports of a module with value
// bindings. A JavaScript module is parsed whole, so an import anywhere at
// its top level is found (bundlers such as Bun put them mid-file); a
// TypeScript or JSX module (or one the parser refuses) only yields the
// imports of its prologue, before its first other statement, which the
// lexer reads soundly without a parser (importPrologue).
func moduleImports(src string, typeScriptOrJSX bool) []importDecl {
	if !typeScriptOrJSX {
		if m, ok := parseJSModule(src); ok {
			return m.imports()
		}
	}
	return importPrologue(src)
}

// imports lists the parsed module's top-level import declarations that
// bind values; a declaration whose tokens cannot be located is left out.
func (m jsModule) imports() []importDecl {
	var decls []importDecl
	for _, stmt := range m.ast.BlockStmt.List {
		imp, ok := stmt.(*js.ImportStmt)
		if !ok || len(imp.Module) < 2 {
			continue
		}
		modAt, ok := m.offset(imp.Module)
		if !ok {
			continue
		}
		d := importDecl{spec: string(imp.Module[1 : len(imp.Module)-1]), quoted: string(imp.Module), after: modAt + len(imp.Module)}
		if imp.Default != nil {
			if at, ok := m.offset(imp.Default); ok {
				d.bindings = append(d.bindings, importBinding{imported: "default", local: string(imp.Default), at: at, token: string(imp.Default), renamed: true})
			}
		}
		for _, a := range imp.List {
			if string(a.Name) == "*" {
				d.namespace = string(a.Binding)
				continue
			}
			if a.Binding == nil {
				continue // a trailing comma
			}
			at, ok := m.offset(a.Binding)
			if !ok {
				continue
			}
			b := importBinding{imported: string(a.Binding), local: string(a.Binding), at: at, token: string(a.Binding)}
			if a.Name != nil {
				b.imported, b.renamed = unquoteName(string(a.Name)), true
			}
			d.bindings = append(d.bindings, b)
		}
		if len(d.bindings) > 0 || d.namespace != "" {
			decls = append(decls, d)
		}
	}
	return decls
}

// unquoteName returns an import name written as a string literal without
// its quotes (names with escapes stay as written and so match nothing).
func unquoteName(name string) string {
	if len(name) >= 2 && (name[0] == '"' || name[0] == '\'') && !strings.Contains(name, `\`) {
		return name[1 : len(name)-1]
	}
	return name
}

// importPrologue returns the value-binding imports at the start of a
// module (TypeScript and JSX included): after a hashbang, directives and
// empty statements, up to the first token that does not continue an
// import declaration. Only identifiers, strings and punctuators make up
// such declarations, so reading them needs no parser: no "/" can start a
// regular expression there, and a template literal, "(" or "." after
// import (a dynamic import, import.meta) ends the prologue. Type-only
// imports and items are read and skipped. Text it does not understand
// ends the prologue.
func importPrologue(src string) []importDecl {
	start := 0
	if strings.HasPrefix(src, "#!") {
		start = len(src)
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			start = i
		}
	}
	r := newTokenReader(src, start)
	var decls []importDecl
	for {
		t := r.next()
		switch t.tt {
		case js.SemicolonToken:
			continue
		case js.StringToken: // a directive such as "use client"
			if end := r.next(); end.tt != js.SemicolonToken {
				return decls
			}
			continue
		case js.ImportToken:
			d, ok := readImportDecl(r)
			if !ok {
				return decls
			}
			if len(d.bindings) > 0 {
				decls = append(decls, d)
			}
			continue
		}
		return decls
	}
}

// readImportDecl reads an import declaration after its import keyword,
// through its end; ok is false when the text is not one.
func readImportDecl(r *tokenReader) (importDecl, bool) {
	var d importDecl
	t := r.next()
	if t.tt == js.StringToken { // import "side-effect";
		return d, finishImport(r, &d, t)
	}
	typeOnly := false
	if t.tt == js.IdentifierToken && t.text == "type" {
		next := r.next()
		switch {
		case next.tt == js.OpenBraceToken || next.tt == js.MulToken:
			typeOnly = true
		case next.tt == js.FromToken: // import type from "m": a default binding named type
			r.unread(next)
		case js.IsIdentifier(next.tt):
			typeOnly = true
		default:
			return d, false
		}
		if typeOnly {
			t = next
		}
	}
	if js.IsIdentifier(t.tt) { // a default binding
		d.bindings = append(d.bindings, importBinding{imported: "default", local: t.text, at: t.at, token: t.text, renamed: true})
		if t = r.next(); t.tt == js.CommaToken {
			t = r.next()
		} else {
			r.unread(t) // from, or not an import (import x = require(…))
			t = readToken{tt: js.ErrorToken}
		}
	}
	switch t.tt {
	case js.MulToken:
		if as, name := r.next(), r.next(); as.tt != js.AsToken || !js.IsIdentifier(name.tt) {
			return d, false
		}
	case js.OpenBraceToken:
		items, ok := readImportItems(r)
		if !ok {
			return d, false
		}
		d.bindings = append(d.bindings, items...)
	case js.ErrorToken:
	default:
		return d, false
	}
	if from := r.next(); from.tt != js.FromToken {
		return d, false
	}
	spec := r.next()
	if spec.tt != js.StringToken {
		return d, false
	}
	if typeOnly {
		d.bindings = nil
	}
	return d, finishImport(r, &d, spec)
}

// finishImport records the specifier token spec in d and reads the end of
// the declaration: a semicolon, or a line break before the next token
// (which is not an import attributes clause, left alone).
func finishImport(r *tokenReader, d *importDecl, spec readToken) bool {
	d.quoted, d.spec, d.after = spec.text, spec.text[1:len(spec.text)-1], spec.at+len(spec.text)
	switch t := r.next(); {
	case t.tt == js.SemicolonToken:
		return true
	case t.tt == js.ErrorToken:
		return true
	case t.newline && t.text != "with" && t.text != "assert":
		r.unread(t)
		return true
	}
	return false
}

// readImportItems reads the items of an import's braces after "{",
// through "}", returning the value bindings.
func readImportItems(r *tokenReader) ([]importBinding, bool) {
	var got []importBinding
	for {
		var item []readToken
		t := r.next()
		for t.tt != js.CommaToken && t.tt != js.CloseBraceToken {
			if !js.IsIdentifierName(t.tt) && t.tt != js.StringToken || len(item) == 4 {
				return nil, false
			}
			item = append(item, t)
			t = r.next()
		}
		if len(item) > 0 {
			b, value, ok := importItem(item)
			if !ok {
				return nil, false
			}
			if value {
				got = append(got, b)
			}
		}
		if t.tt == js.CloseBraceToken {
			return got, true
		}
	}
}

// importItem reads one item of an import's braces: name, name as local,
// and TypeScript's type name and type name as local (no value binding).
func importItem(item []readToken) (importBinding, bool, bool) {
	isAs := func(t readToken) bool { return t.tt == js.AsToken }
	switch {
	case len(item) == 1 && item[0].tt != js.StringToken:
		n := item[0]
		return importBinding{imported: n.text, local: n.text, at: n.at, token: n.text}, true, true
	case len(item) == 3 && isAs(item[1]) && item[2].tt != js.StringToken:
		n, l := item[0], item[2]
		return importBinding{imported: unquoteName(n.text), local: l.text, at: l.at, token: l.text, renamed: true}, true, true
	case len(item) == 2 && item[0].text == "type" && item[1].tt != js.StringToken,
		len(item) == 4 && item[0].text == "type" && isAs(item[2]) && item[3].tt != js.StringToken:
		return importBinding{}, false, true
	}
	return importBinding{}, false, false
}

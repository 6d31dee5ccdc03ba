package jstransform

import (
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2/js"
)

// Branded classes and tree shaking.
//
// The MCP TypeScript SDK (which ext-apps' App extends) ships Rolldown output
// in which every error class brands itself in a static block:
//
//	var OAuthClientFlowError = class extends Error {
//		static { Object.defineProperty(this, "mcpBrand", { value: "mcp.OAuthClientFlowError" }); }
//		…
//	};
//
// Rolldown sees that the block only touches the class and drops an unused
// class; esbuild keeps every class with a static block, and with it what
// the class reaches: for an App widget the whole OAuth client (~60 kB
// minified, bench/shapes). PureClasses wraps such a class in an IIFE marked
// /* @__PURE__ */, so esbuild drops it when nothing uses it — but only when
// defining it cannot do anything else: the superclass is a plain name,
// every static block only brands the class or hands out accessors,
// there are no static fields with initializers, and every computed key is a
// well-known Symbol (statements allowed in a block:
// droppableStaticStatement). Vite 8 (Rolldown) drops the same classes.

// PureClasses returns src with every droppable branded class binding
// wrapped as described above, and whether it changed anything. Which
// classes qualify is decided on the parsed module (droppableClass); the
// wrapped module is parsed again and must equal the original statement
// for statement, each wrapped class included, else src is kept.
// TypeScript and JSX are left alone (the SDK ships JavaScript).
func PureClasses(src string, loader api.Loader) (string, bool) {
	// Only a class with a static block qualifies; a module without the
	// text is not parsed (one written "static /* */ {" is merely missed).
	if loader != api.LoaderJS || !strings.Contains(src, "static {") && !strings.Contains(src, "static{") {
		return src, false
	}
	m, ok := parseJSModule(src)
	if !ok {
		return src, false
	}
	var edits []textEdit
	wrapped := map[int]*js.ClassDecl{}
	for i, stmt := range m.ast.BlockStmt.List {
		name, cls := classBinding(stmt)
		if cls == nil || !droppableClass(cls) {
			continue
		}
		start, end, ok := m.classSpan(src, name)
		if !ok {
			continue
		}
		n := string(name.Data)
		edits = append(edits, textEdit{at: start, insert: "/* @__PURE__ */ (() => { const " + n + " = "},
			textEdit{at: end, insert: "; return " + n + "; })()"})
		wrapped[i] = cls
	}
	return applyChecked(src, edits, func(out string) bool { return sameButWrapped(m, out, wrapped) })
}

// classBinding returns the name and class of a `var|let|const NAME =
// class …` statement, nil otherwise.
func classBinding(stmt js.IStmt) (*js.Var, *js.ClassDecl) {
	decl, ok := stmt.(*js.VarDecl)
	if !ok || len(decl.List) != 1 {
		return nil, nil
	}
	name, ok := decl.List[0].Binding.(*js.Var)
	cls, isClass := decl.List[0].Default.(*js.ClassDecl)
	if !ok || !isClass {
		return nil, nil
	}
	return name, cls
}

// classSpan returns where the class expression bound to name starts (its
// class keyword) and ends (after its closing brace): the tokens from the
// name's declaration are read up to the body's "{" (NAME = class [Name]
// [extends Base] {), the body's end is found by matchBrace. A wrong answer
// cannot slip through: sameButWrapped checks the result.
func (m jsModule) classSpan(src string, name *js.Var) (int, int, bool) {
	r, ok := m.declaredValue(src, name)
	if !ok {
		return 0, 0, false
	}
	class := r.next()
	if class.tt != js.ClassToken {
		return 0, 0, false
	}
	t := r.next()
	for i := 0; i < 3 && t.tt != js.OpenBraceToken; i++ {
		if !js.IsIdentifierName(t.tt) {
			return 0, 0, false
		}
		t = r.next()
	}
	if t.tt != js.OpenBraceToken {
		return 0, 0, false
	}
	end := matchBrace(src, t.at)
	if end < 0 {
		return 0, 0, false
	}
	return class.at, end + 1, true
}

// sameButWrapped reports whether out parses to the statements of m, but
// for those in wrapped, which must now bind the same class through a pure
// IIFE: var NAME = (() => { const NAME = <the class>; return NAME; })().
func sameButWrapped(m jsModule, out string, wrapped map[int]*js.ClassDecl) bool {
	n, ok := parseJSModule(out)
	if !ok || len(n.ast.BlockStmt.List) != len(m.ast.BlockStmt.List) {
		return false
	}
	for i, stmt := range n.ast.BlockStmt.List {
		orig := m.ast.BlockStmt.List[i]
		cls, isWrapped := wrapped[i]
		if !isWrapped {
			if stmt.String() != orig.String() {
				return false
			}
			continue
		}
		name, _ := classBinding(orig)
		if !wrapsClass(stmt, orig.(*js.VarDecl).TokenType, string(name.Data), cls.String()) {
			return false
		}
	}
	return true
}

// wrapsClass reports whether stmt is `kw name = (() => { const name =
// <class printed as want>; return name; })()`.
func wrapsClass(stmt js.IStmt, kw js.TokenType, name, want string) bool {
	decl, ok := stmt.(*js.VarDecl)
	if !ok || decl.TokenType != kw || len(decl.List) != 1 {
		return false
	}
	if v, ok := decl.List[0].Binding.(*js.Var); !ok || string(v.Data) != name {
		return false
	}
	call, ok := decl.List[0].Default.(*js.CallExpr)
	if !ok || len(call.Args.List) != 0 {
		return false
	}
	callee := call.X
	if g, ok := callee.(*js.GroupExpr); ok {
		callee = g.X
	}
	fn, ok := callee.(*js.ArrowFunc)
	if !ok || fn.Async || len(fn.Params.List) != 0 || fn.Params.Rest != nil || len(fn.Body.List) != 2 {
		return false
	}
	inner, cls := classBinding(fn.Body.List[0])
	ret, isReturn := fn.Body.List[1].(*js.ReturnStmt)
	if cls == nil || string(inner.Data) != name || fn.Body.List[0].(*js.VarDecl).TokenType != js.ConstToken || !isReturn {
		return false
	}
	v, ok := ret.Value.(*js.Var)
	return ok && string(v.Data) == name && cls.String() == want
}

// droppableClass reports whether defining cls has no effect outside the
// class, and it has a static block (without one esbuild needs no help): a
// plain-name superclass or none, every static block droppable, no static
// field with an initializer, every computed key a well-known Symbol.
func droppableClass(cls *js.ClassDecl) bool {
	if cls.Extends != nil {
		if _, ok := cls.Extends.(*js.Var); !ok {
			return false
		}
	}
	blocks := 0
	for _, el := range cls.List {
		switch {
		case el.StaticBlock != nil:
			for _, stmt := range el.StaticBlock.List {
				if !droppableStaticStatement(stmt) {
					return false
				}
			}
			blocks++
		case el.Method != nil:
			if !wellKnownKey(el.Method.Name.PropertyName) {
				return false
			}
		default:
			if el.Field.Static && el.Field.Init != nil || !wellKnownKey(el.Field.Name.PropertyName) {
				return false
			}
		}
	}
	return blocks > 0
}

// wellKnownKey reports whether a class member's key is a plain name or
// computed from a well-known Symbol (Symbol.iterator, …), so that
// computing it runs no code of the module.
func wellKnownKey(key js.PropertyName) bool {
	if key.Computed == nil {
		return true
	}
	dot, ok := key.Computed.(*js.DotExpr)
	if !ok || dot.Optional {
		return false
	}
	v, ok := dot.X.(*js.Var)
	return ok && string(v.Data) == "Symbol"
}

// droppableStaticStatement reports whether a static block's statement can
// go with its class: branding the class itself
// (Object.defineProperty(this, "k", { value: "v" })), or handing module
// code an accessor (an arrow function) for the class's private state, the
// "friend" pattern the SDK uses (clientInternals.walkPages = (client, …) =>
// client._walkPages(…)); an accessor only does something to an instance,
// and there is none without the class.
func droppableStaticStatement(stmt js.IStmt) bool {
	switch s := stmt.(type) {
	case *js.EmptyStmt:
		return true
	case *js.ExprStmt:
		switch e := s.Value.(type) {
		case *js.CallExpr:
			return isBrand(e)
		case *js.BinaryExpr:
			if e.Op != js.EqToken || !isNameOrMember(e.X) {
				return false
			}
			y := e.Y
			if g, ok := y.(*js.GroupExpr); ok {
				y = g.X
			}
			_, arrow := y.(*js.ArrowFunc)
			return arrow
		}
	}
	return false
}

// isBrand reports whether call is Object.defineProperty(this, "k", {
// value: "v" }) with string literals.
func isBrand(call *js.CallExpr) bool {
	dot, ok := call.X.(*js.DotExpr)
	if !ok || dot.Optional || call.Optional || len(call.Args.List) != 3 || dotName(dot) != "Object.defineProperty" {
		return false
	}
	args := call.Args.List
	this, ok := args[0].Value.(*js.LiteralExpr)
	if !ok || this.TokenType != js.ThisToken || args[0].Rest {
		return false
	}
	if k, ok := args[1].Value.(*js.LiteralExpr); !ok || k.TokenType != js.StringToken || args[1].Rest {
		return false
	}
	obj, ok := args[2].Value.(*js.ObjectExpr)
	if !ok || args[2].Rest || len(obj.List) != 1 {
		return false
	}
	p := obj.List[0]
	if p.Spread || p.Init != nil || p.Name == nil || p.Name.Computed != nil || string(p.Name.Literal.Data) != "value" {
		return false
	}
	v, ok := p.Value.(*js.LiteralExpr)
	return ok && v.TokenType == js.StringToken
}

// dotName is a.b for a member expression of two plain names, else "".
func dotName(dot *js.DotExpr) string {
	v, ok := dot.X.(*js.Var)
	if !ok {
		return ""
	}
	switch y := dot.Y.(type) { // the parser stores the member by value
	case js.LiteralExpr:
		return string(v.Data) + "." + string(y.Data)
	case *js.LiteralExpr:
		return string(v.Data) + "." + string(y.Data)
	}
	return ""
}

// isNameOrMember reports whether e is a plain name or name.member.
func isNameOrMember(e js.IExpr) bool {
	switch x := e.(type) {
	case *js.Var:
		return true
	case *js.DotExpr:
		return !x.Optional && dotName(x) != ""
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// matchBrace returns the index of the bracket closing the one at open in
// src, skipping strings, template literals, comments and regular
// expressions; -1 when there is none (or the text confuses the scan).
func matchBrace(src string, open int) int {
	var stack []byte
	for i := open; i < len(src); {
		c := src[i]
		switch c {
		case '{', '(', '[':
			stack = append(stack, map[byte]byte{'{': '}', '(': ')', '[': ']'}[c])
			i++
		case '}', ')', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return -1
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return i
			}
			i++
		case '"', '\'', '`', '/':
			next := skipToken(src, i)
			if next < 0 {
				return -1
			}
			i = next
		default:
			i++
		}
	}
	return -1
}

// skipToken returns the index after the string, template literal, comment
// or regular expression starting at i (or i+1 for a division sign); -1 when
// it does not end.
func skipToken(src string, i int) int {
	c := src[i]
	switch {
	case c == '/' && strings.HasPrefix(src[i:], "//"):
		if n := strings.IndexByte(src[i:], '\n'); n >= 0 {
			return i + n + 1
		}
		return len(src)
	case c == '/' && strings.HasPrefix(src[i:], "/*"):
		if n := strings.Index(src[i+2:], "*/"); n >= 0 {
			return i + 2 + n + 2
		}
		return -1
	case c == '/' && !regexAllowed(src[:i]):
		return i + 1
	case c == '`':
		for j := i + 1; j < len(src); j++ {
			switch {
			case src[j] == '\\':
				j++
			case src[j] == '`':
				return j + 1
			case src[j] == '$' && j+1 < len(src) && src[j+1] == '{':
				end := matchBrace(src, j+1)
				if end < 0 {
					return -1
				}
				j = end
			}
		}
		return -1
	}
	// A quoted string or a regular expression (with its classes).
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch d := src[j]; {
		case d == '\\':
			j++
		case d == '\n':
			return -1
		case c == '/' && d == '[':
			inClass = true
		case c == '/' && d == ']':
			inClass = false
		case d == c && !inClass:
			return j + 1
		}
	}
	return -1
}

// regexAllowed reports whether a "/" after before starts a regular
// expression rather than dividing.
func regexAllowed(before string) bool {
	t := strings.TrimRight(before, " \t\r\n")
	if t == "" {
		return true
	}
	if strings.ContainsRune("(,=:[!&|?{};+-*%<>~^", rune(t[len(t)-1])) {
		return true
	}
	for _, kw := range []string{"return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await", "delete", "throw", "new"} {
		if strings.HasSuffix(t, kw) && (len(t) == len(kw) || !isIdentByte(t[len(t)-len(kw)-1])) {
			return true
		}
	}
	return false
}

package jstransform

import (
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2/js"
)

// Unused data and schemas, and tree shaking.
//
// A package's module often defines constants that the part a widget uses
// never reads: the MCP SDK's client builds a table of its HTTP validation
// rules (INBOUND_VALIDATION_LADDER, ~5.5 kB of prose) from the members of
// an enum, and ext-apps defines a zod schema for every ui/* message, most
// of which an App never parses. esbuild keeps a declaration that calls a
// function (z.object could do anything), and in a module it initialises
// lazily (one that is also imported at run time, as the SDK's client is in
// an App widget) one that reads a property, which could run a getter;
// Rolldown drops both when unused (bench/shapes: they were most of what
// made an App widget bigger than Vite 8's). PureInitializers wraps the
// initializer of a top-level declaration in an IIFE marked
// /* @__PURE__ */, so esbuild drops it when nothing reads the binding, and
// inlines it again when something does (the bytes are then the same as
// without the wrap). It does so only when evaluating the initializer can
// have no effect but its value:
//
//   - literals, template literals without a tag, functions, object and
//     array literals (no spread: spreading runs iterators and getters), the
//     operators that call no user code on such values (typeof, !, void,
//     ===, !==, &&, ||, ??, ?:), and names the module declares or imports;
//   - property reads of a name the module declares or imports, or of a
//     built-in namespace (Symbol.iterator, Number.MAX_SAFE_INTEGER): the
//     assumption Rolldown's tree shaking makes, that a package's enum and
//     namespace objects have no getters that do something;
//   - calls into zod (a chain rooted at a binding imported from "zod" or
//     "zod/…", or at a const declared above as such a chain) through its
//     schema builders (schemaBuilders): each returns a new schema and
//     touches nothing else; .meta and .register, which write to a
//     registry, are not among them, nor is anything that parses.
//
// Anything else (another call, new, an assignment, an undeclared name,
// await) leaves the declaration as written, and a module with a direct eval
// (which can read any binding by name) is left whole. Only dependencies are
// touched: the bundler calls this for files under node_modules.

// PureInitializers returns src with the initializer of every top-level
// declaration that qualifies (above) wrapped as
// /* @__PURE__ */ (() => (<initializer>))(), and whether it changed
// anything. The wrapped module is parsed again and must equal the original
// declaration for declaration, else src is kept. TypeScript and JSX are
// left alone (packages ship JavaScript).
func PureInitializers(src string, loader api.Loader) (string, bool) {
	// A direct eval can read any top-level binding by name, so nothing
	// unread in the text may go; a module that mentions eval( is left
	// alone (one that only has it in a string too: rare, and merely missed).
	if loader != api.LoaderJS || strings.Contains(src, "eval(") {
		return src, false
	}
	m, ok := parseJSModule(src)
	if !ok {
		return src, false
	}
	p := purity{imported: map[string]bool{}, zod: map[string]bool{}, schemas: map[string]bool{}}
	assigned := assignedNames(m)
	p.addImports(m)
	var edits []textEdit
	wrapped := map[*js.BindingElement]bool{}
	for _, stmt := range m.ast.BlockStmt.List {
		decl, ok := stmt.(*js.VarDecl)
		if !ok {
			continue
		}
		for i := range decl.List {
			el := &decl.List[i]
			name, ok := el.Binding.(*js.Var)
			if !ok || el.Default == nil || !p.worthWrapping(el.Default) || !p.pure(el.Default) {
				continue
			}
			start, end, ok := m.initializerSpan(src, name)
			if !ok {
				continue
			}
			if call, isCall := el.Default.(*js.CallExpr); isCall && !assigned[name] && p.zodBuilder(call.X) {
				p.schemas[string(name.Data)] = true
			}
			edits = append(edits, textEdit{at: start, insert: "/* @__PURE__ */ (() => ("}, textEdit{at: end, insert: "))()"})
			wrapped[el] = true
		}
	}
	return applyChecked(src, edits, func(out string) bool { return sameButPure(m, out, wrapped) })
}

// assignedNames returns the variables that something in the module
// assigns to (=, +=, ++, …, or a for-in/of head), anywhere: the parser
// gives a declaration and every use of it one *js.Var.
func assignedNames(m jsModule) map[*js.Var]bool {
	w := assignmentWalker{assigned: map[*js.Var]bool{}}
	js.Walk(w, m.ast)
	return w.assigned
}

type assignmentWalker struct{ assigned map[*js.Var]bool }

func (w assignmentWalker) Enter(n js.INode) js.IVisitor {
	var target js.INode
	switch x := n.(type) {
	case *js.BinaryExpr:
		if isAssignment(x.Op) {
			target = x.X
		}
	case *js.UnaryExpr:
		if x.Op == js.PreIncrToken || x.Op == js.PreDecrToken || x.Op == js.PostIncrToken || x.Op == js.PostDecrToken {
			target = x.X
		}
	case *js.ForInStmt:
		target = x.Init
	case *js.ForOfStmt:
		target = x.Init
	}
	if target != nil {
		// A destructuring target ([a, b] = …) assigns every name in it;
		// counting a default value's names too errs on the safe side.
		js.Walk(varCollector(w.assigned), target)
	}
	return w
}

// varCollector adds every variable of the tree it walks to the set.
type varCollector map[*js.Var]bool

func (c varCollector) Enter(n js.INode) js.IVisitor {
	if v, ok := n.(*js.Var); ok {
		c[v] = true
	}
	return c
}

func (c varCollector) Exit(js.INode) {}

func (w assignmentWalker) Exit(js.INode) {}

// isAssignment reports whether op is = or a compound assignment.
func isAssignment(op js.TokenType) bool {
	switch op {
	case js.EqToken, js.AddEqToken, js.SubEqToken, js.MulEqToken, js.DivEqToken, js.ModEqToken, js.ExpEqToken,
		js.LtLtEqToken, js.GtGtEqToken, js.GtGtGtEqToken, js.BitAndEqToken, js.BitOrEqToken, js.BitXorEqToken,
		js.AndEqToken, js.OrEqToken, js.NullishEqToken:
		return true
	}
	return false
}

// addImports records the module's imported local names, namespace
// imports included, and which of them come from zod ("zod", "zod/v4",
// "zod/mini", …).
func (p purity) addImports(m jsModule) {
	for _, d := range m.imports() {
		fromZod := d.spec == "zod" || strings.HasPrefix(d.spec, "zod/")
		names := []string{d.namespace}
		for _, b := range d.bindings {
			names = append(names, b.local)
		}
		for _, name := range names {
			if name != "" {
				p.imported[name] = true
				p.zod[name] = p.zod[name] || fromZod
			}
		}
	}
}

// purity decides which expressions evaluate to a value and do nothing
// else (PureInitializers' rules).
type purity struct {
	imported map[string]bool // local names of imports (the parser declares none)
	zod      map[string]bool // those of them imported from zod
	// schemas are the bindings declared so far, never assigned again,
	// whose initializer is a zod builder call: a method of one
	// (Base.extend, Name.optional) builds a schema as z.object(…).extend
	// would.
	schemas map[string]bool
}

// builtinNamespaces are the global objects whose properties a pure
// initializer may read: constants and well-known symbols.
var builtinNamespaces = map[string]bool{"Symbol": true, "Number": true, "Math": true}

// schemaBuilders are zod's functions and methods that build a schema and
// return it, touching nothing else (zod 3 and 4, classic and mini). A zod
// call by any other name (meta, register, parse, config, …) is not pure.
var schemaBuilders = wordSet(`object looseObject strictObject string number boolean bigint date symbol
	undefined null void any unknown never nan int int32 uint32 float32 float64 literal enum nativeEnum
	union discriminatedUnion xor intersection array tuple record partialRecord looseRecord map set
	lazy promise instanceof custom templateLiteral file json stringbool success
	optional nullable nullish default prefault catch describe brand readonly passthrough strict
	strip catchall extend safeExtend merge pick omit partial required keyof element and or pipe
	transform refine superRefine check overwrite min max length gt gte lt lte positive negative
	nonpositive nonnegative multipleOf step finite safe nonempty size regex includes startsWith
	endsWith trim toLowerCase toUpperCase lowercase uppercase normalize email url httpUrl uuid
	uuidv4 uuidv6 uuidv7 guid cuid cuid2 ulid xid ksuid nanoid emoji ipv4 ipv6 cidrv4 cidrv6
	mac base64 base64url hex jwt hash hostname e164 datetime time duration iso coerce`)

// wordSet returns the set of the white-space separated words of s.
func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// worthWrapping reports whether esbuild would keep an unused e on its own:
// it has a call, a new or a property read (esbuild drops the rest).
func (p purity) worthWrapping(e js.IExpr) bool {
	switch x := e.(type) {
	case *js.CallExpr, *js.NewExpr:
		return true
	case *js.DotExpr:
		v, ok := x.X.(*js.Var)
		return !ok || !builtinNamespaces[string(v.Data)]
	case *js.IndexExpr:
		return true
	case *js.GroupExpr:
		return p.worthWrapping(x.X)
	case *js.UnaryExpr:
		return p.worthWrapping(x.X)
	case *js.BinaryExpr:
		return p.worthWrapping(x.X) || p.worthWrapping(x.Y)
	case *js.CondExpr:
		return p.worthWrapping(x.Cond) || p.worthWrapping(x.X) || p.worthWrapping(x.Y)
	case *js.TemplateExpr:
		for _, part := range x.List {
			if p.worthWrapping(part.Expr) {
				return true
			}
		}
	case *js.ArrayExpr:
		for _, el := range x.List {
			if el.Value != nil && p.worthWrapping(el.Value) {
				return true
			}
		}
	case *js.ObjectExpr:
		for _, prop := range x.List {
			if prop.Name != nil && prop.Name.Computed != nil && p.worthWrapping(prop.Name.Computed) ||
				prop.Value != nil && p.worthWrapping(prop.Value) {
				return true
			}
		}
	}
	return false
}

// pure reports whether evaluating e yields its value and does nothing else.
func (p purity) pure(e js.IExpr) bool {
	switch x := e.(type) {
	case *js.LiteralExpr:
		return x.TokenType != js.ThisToken && x.TokenType != js.SuperToken
	case *js.Var:
		return p.declared(x)
	case *js.ArrowFunc, *js.FuncDecl:
		return true // creating a function runs none of it
	case *js.GroupExpr:
		return p.pure(x.X)
	case *js.TemplateExpr:
		return x.Tag == nil && p.allPure(templateExprs(x)...)
	case *js.ArrayExpr:
		for _, el := range x.List {
			if el.Spread || el.Value != nil && !p.pure(el.Value) {
				return false
			}
		}
		return true
	case *js.ObjectExpr:
		return p.pureObject(x)
	case *js.DotExpr:
		return !x.Optional && p.pureRead(x.X)
	case *js.IndexExpr:
		key, ok := x.Y.(*js.LiteralExpr)
		return !x.Optional && ok && (key.TokenType == js.StringToken || key.TokenType == js.DecimalToken) && p.pureRead(x.X)
	case *js.UnaryExpr:
		return pureUnary(x.Op) && p.pure(x.X) || x.Op == js.NegToken && isNumber(x.X)
	case *js.BinaryExpr:
		return pureBinary(x.Op) && p.pure(x.X) && p.pure(x.Y)
	case *js.CondExpr:
		return p.allPure(x.Cond, x.X, x.Y)
	case *js.CallExpr:
		return !x.Optional && p.zodBuilder(x.X) && p.pureArgs(x.Args)
	}
	return false
}

func (p purity) allPure(es ...js.IExpr) bool {
	for _, e := range es {
		if !p.pure(e) {
			return false
		}
	}
	return true
}

func templateExprs(t *js.TemplateExpr) []js.IExpr {
	es := make([]js.IExpr, 0, len(t.List))
	for _, part := range t.List {
		es = append(es, part.Expr)
	}
	return es
}

// pureObject reports whether an object literal's keys and values are pure;
// a spread may run getters and is not.
func (p purity) pureObject(o *js.ObjectExpr) bool {
	for _, prop := range o.List {
		if prop.Spread || prop.Init != nil {
			return false
		}
		if prop.Name != nil && prop.Name.Computed != nil && !p.pure(prop.Name.Computed) {
			return false
		}
		if _, method := prop.Value.(*js.MethodDecl); !method && !p.pure(prop.Value) {
			return false
		}
	}
	return true
}

// pureRead reports whether reading a property of x is assumed to do
// nothing: x is a name the module declares or imports, a built-in
// namespace, or itself such a read (util.regexes.email).
func (p purity) pureRead(x js.IExpr) bool {
	switch v := x.(type) {
	case *js.Var:
		return p.declared(v) || builtinNamespaces[string(v.Data)]
	case *js.DotExpr:
		return !v.Optional && p.pureRead(v.X)
	}
	return false
}

// zodBuilder reports whether callee is a zod schema builder: z.object,
// object (imported by name), z.string().min, z.coerce.number, or a method
// of a schema so built (….optional, ….describe).
func (p purity) zodBuilder(callee js.IExpr) bool {
	switch c := callee.(type) {
	case *js.Var:
		return p.zod[string(c.Data)] && p.declared(c)
	case *js.DotExpr:
		if c.Optional || !schemaBuilders[string(memberName(c.Y))] {
			return false
		}
		switch x := c.X.(type) {
		case *js.Var: // z.object, or Schema.optional of a schema const above
			return (p.zod[string(x.Data)] || p.schemas[string(x.Data)]) && p.declared(x)
		case *js.DotExpr: // z.coerce.number, z.iso.datetime
			return p.zodBuilder(x)
		case *js.CallExpr: // a method of a built schema
			return !x.Optional && p.zodBuilder(x.X) && p.pureArgs(x.Args)
		}
		return false
	}
	return false
}

func (p purity) pureArgs(args js.Args) bool {
	for _, a := range args.List {
		if a.Rest || !p.pure(a.Value) {
			return false
		}
	}
	return true
}

// declared reports whether v names something the module declares or
// imports: reading it cannot throw a ReferenceError (undefined, NaN and
// Infinity are globals that cannot either).
func (p purity) declared(v *js.Var) bool {
	switch name := string(v.Name()); {
	case name == "undefined" || name == "NaN" || name == "Infinity":
		return true
	case v.Decl == js.NoDecl:
		return p.imported[name]
	}
	return true
}

// pureUnary reports whether the unary operator op calls no user code on a
// pure operand: not ++/--, delete or await, and not + or - (which convert
// an object through its valueOf).
func pureUnary(op js.TokenType) bool {
	switch op {
	case js.NotToken, js.TypeofToken, js.VoidToken:
		return true
	}
	return false
}

// isNumber reports whether e is a numeric literal (-1 is a negation of
// one).
func isNumber(e js.IExpr) bool {
	l, ok := e.(*js.LiteralExpr)
	if !ok {
		return false
	}
	switch l.TokenType {
	case js.DecimalToken, js.BinaryToken, js.OctalToken, js.HexadecimalToken, js.IntegerToken:
		return true
	}
	return false
}

// pureBinary reports whether the binary operator op calls no user code on
// pure operands: the logical and strict comparison operators (arithmetic
// and loose comparison convert objects through valueOf, in and instanceof
// can throw, assignments write).
func pureBinary(op js.TokenType) bool {
	switch op {
	case js.AndToken, js.OrToken, js.NullishToken, js.EqEqEqToken, js.NotEqEqToken, js.CommaToken:
		return true
	}
	return false
}

// initializerSpan returns where the initializer of the declarator named
// name starts (after its "=") and ends (before the "," or ";" that ends it
// at the outermost level). Brackets, strings, template literals, comments
// and regular expressions are skipped as matchBrace does. A wrong answer
// cannot slip through: sameButPure checks the result.
func (m jsModule) initializerSpan(src string, name *js.Var) (int, int, bool) {
	r, ok := m.declaredValue(src, name)
	if !ok {
		return 0, 0, false
	}
	start := r.next().at
	for i := start; i < len(src); {
		switch c := src[i]; c {
		case '(', '[', '{':
			end := matchBrace(src, i)
			if end < 0 {
				return 0, 0, false
			}
			i = end + 1
		case ')', ']', '}':
			return 0, 0, false
		case ',', ';':
			return start, i, true
		case '"', '\'', '`', '/':
			next := skipToken(src, i)
			if next < 0 {
				return 0, 0, false
			}
			i = next
		default:
			i++
		}
	}
	return 0, 0, false
}

// sameButPure reports whether out parses to as many statements as m, with
// each initializer in wrapped now inside a pure IIFE and otherwise the
// same. Only the declarations holding one are compared: every inserted
// text belongs to one of those initializers, so an insertion anywhere else
// would leave its initializer unwrapped, and the comparison fails.
// (Printing every statement of a large module twice cost more than the
// parse.)
func sameButPure(m jsModule, out string, wrapped map[*js.BindingElement]bool) bool {
	n, ok := parseJSModule(out)
	if !ok || len(n.ast.BlockStmt.List) != len(m.ast.BlockStmt.List) {
		return false
	}
	found := 0
	for i, orig := range m.ast.BlockStmt.List {
		od, isDecl := orig.(*js.VarDecl)
		if !isDecl || !holdsWrapped(od, wrapped) {
			continue
		}
		nd, ok := n.ast.BlockStmt.List[i].(*js.VarDecl)
		if !ok || nd.TokenType != od.TokenType || len(nd.List) != len(od.List) {
			return false
		}
		for j := range od.List {
			oe, ne := &od.List[j], &nd.List[j]
			if !wrapped[oe] {
				continue
			}
			inner, ok := unwrapIIFE(ne.Default)
			if !ok || ne.Binding.String() != oe.Binding.String() || inner.String() != oe.Default.String() {
				return false
			}
			found++
		}
	}
	return found == len(wrapped)
}

// holdsWrapped reports whether a declarator of decl is in wrapped.
func holdsWrapped(decl *js.VarDecl, wrapped map[*js.BindingElement]bool) bool {
	for j := range decl.List {
		if wrapped[&decl.List[j]] {
			return true
		}
	}
	return false
}

// unwrapIIFE returns x of (() => (x))(), the form PureInitializers writes.
func unwrapIIFE(e js.IExpr) (js.IExpr, bool) {
	call, ok := e.(*js.CallExpr)
	if !ok || len(call.Args.List) != 0 || call.Optional {
		return nil, false
	}
	callee := call.X
	if g, ok := callee.(*js.GroupExpr); ok {
		callee = g.X
	}
	fn, ok := callee.(*js.ArrowFunc)
	if !ok || fn.Async || len(fn.Params.List) != 0 || fn.Params.Rest != nil || len(fn.Body.List) != 1 {
		return nil, false
	}
	ret, ok := fn.Body.List[0].(*js.ReturnStmt)
	if !ok || ret.Value == nil {
		return nil, false
	}
	if g, ok := ret.Value.(*js.GroupExpr); ok {
		return g.X, true
	}
	return ret.Value, true
}

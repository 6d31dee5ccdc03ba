package jstransform

import (
	"strconv"

	"github.com/tdewolff/parse/v2/js"
)

// Member namespaces.
//
// zod's classic schemas do `import * as core from "../core/index.js"` and
// call core.util.constantCatch(…), where core/index.js has `export * as
// util from "./util.js"`. esbuild resolves core.util to util.js's
// namespace object and then keeps all of it (~4.5 kB, bench/shapes);
// Rolldown follows the chain to the one function. memberNamespaceEdits
// imports util.js as a namespace of its own (`import * as
// __widgetd_ns_core_util from "…/util.js"`, right after core's import) and
// replaces the read core.util with that name, which esbuild shakes.

// memberNamespaceEdits returns the edits that make each `ns.name.x` (ns a
// namespace binding of the module from locals, name a namespace its module
// re-exports with `export * as` from another module, read as the object of
// a further member access) read a namespace import of that module instead.
// A use is rewritten only when the parser resolved its ns to the module's
// binding (not a shadowing local) and the text right before name is
// exactly "ns.", so the edit covers exactly the member expression.
func (m jsModule) memberNamespaceEdits(src, file string, locals map[string]nsBinding) []textEdit {
	// The parser declares no import bindings: their uses at any depth
	// resolve to one variable of the module scope's undeclared list, and a
	// parameter or local of the same name is a different variable.
	vars := map[*js.Var]string{}
	for _, v := range m.ast.BlockStmt.Scope.Undeclared {
		if _, ok := locals[string(v.Data)]; ok && v.Link == nil {
			vars[v] = string(v.Data)
		}
	}
	for _, v := range m.ast.BlockStmt.Scope.Declared {
		for u, name := range vars {
			if name == string(v.Data) { // also declared: not JavaScript; leave it
				delete(vars, u)
			}
		}
	}
	if len(vars) == 0 {
		return nil
	}
	w := &memberWalker{m: m, src: src, file: file, vars: vars, locals: locals, imported: map[string]bool{}}
	js.Walk(w, m.ast)
	return w.edits
}

// memberWalker visits a module's member expressions for
// memberNamespaceEdits.
type memberWalker struct {
	m         jsModule
	src, file string
	vars      map[*js.Var]string
	locals    map[string]nsBinding
	imported  map[string]bool // fresh names already imported
	edits     []textEdit
}

// Enter implements js.IVisitor.
func (w *memberWalker) Enter(n js.INode) js.IVisitor {
	outer, ok := n.(*js.DotExpr)
	if !ok || outer.Optional {
		return w
	}
	inner, ok := outer.X.(*js.DotExpr)
	if !ok || inner.Optional {
		return w
	}
	v, ok := inner.X.(*js.Var)
	if !ok {
		return w
	}
	for v.Link != nil {
		v = v.Link
	}
	local, ok := w.vars[v]
	name := memberName(inner.Y)
	if !ok || name == nil {
		return w
	}
	b := w.locals[local]
	module := b.names[string(name)]
	at, located := w.m.offset(name)
	start := at - len(local) - 1
	if module == "" || !located || start < 0 || w.src[start:at] != local+"." || start > 0 && (isIdentByte(w.src[start-1]) || w.src[start-1] == '.' || w.src[start-1] == '\\') {
		return w
	}
	fresh := unusedName(w.src, "__widgetd_ns_"+local+"_"+string(name))
	w.edits = append(w.edits, textEdit{at: start, remove: at + len(name) - start, insert: fresh})
	if !w.imported[fresh] {
		w.imported[fresh] = true
		w.edits = append(w.edits, textEdit{at: b.after, insert: ";import * as " + fresh + " from " + strconv.Quote(importSpec(w.file, module))})
	}
	return w
}

// Exit implements js.IVisitor.
func (w *memberWalker) Exit(js.INode) {}

// memberName is the name token of a member access's property (the parser
// stores it by value or by pointer), nil for anything else.
func memberName(y js.IExpr) []byte {
	switch l := y.(type) {
	case js.LiteralExpr:
		return l.Data
	case *js.LiteralExpr:
		return l.Data
	}
	return nil
}

package bundler

import (
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
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
// minified, bench/shapes). pureClasses wraps such a class in an IIFE marked
// /* @__PURE__ */, so esbuild drops it when nothing uses it — but only when
// defining it cannot do anything else: the superclass is a plain name,
// every static block only brands the class or hands out accessors,
// there are no static fields, and every computed key
// is a well-known Symbol (statements allowed in a block: staticStatementRE).
// Vite 8 (Rolldown) drops the same classes. The rewritten module must still parse, else the
// original is kept.

// classBindingRE finds `var|let|const NAME = class` at the start of a line,
// and the class heading up to its body's "{". Groups: keyword, name, heading.
var classBindingRE = regexp.MustCompile(`(?m)^(var|let|const) ([A-Za-z_$][\w$]*) = (class(?:\s+[A-Za-z_$][\w$]*)??(?:\s+extends\s+[A-Za-z_$][\w$.]*)?\s*)\{`)

// staticStatementRE matches one statement of a static block that can be
// dropped with its class: branding the class itself, or handing module
// code an accessor (an arrow function) for the class's private state, the
// "friend" pattern the SDK uses (clientInternals.walkPages = (client, …) =>
// client._walkPages(…)); an accessor only does something to an instance,
// and there is none without the class.
var staticStatementRE = regexp.MustCompile(`^\s*(?:Object\.defineProperty\(this,\s*"[^"\\]*",\s*\{\s*value:\s*"[^"\\]*"\s*\}\)|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?\s*=\s*(?:\([\w$,\s]*\)|[A-Za-z_$][\w$]*)\s*=>[\s\S]*)\s*$`)

// droppableStaticBlock reports whether every statement of a static block's
// body matches staticStatementRE.
func droppableStaticBlock(body string) bool {
	start := 0
	for i := 0; i <= len(body); {
		if i == len(body) || body[i] == ';' {
			if stmt := body[start:i]; strings.TrimSpace(stmt) != "" && !staticStatementRE.MatchString(stmt) {
				return false
			}
			i++
			start = i
			continue
		}
		switch c := body[i]; c {
		case '{', '(', '[':
			end := matchBrace(body, i)
			if end < 0 {
				return false
			}
			i = end + 1
		case '"', '\'', '`', '/':
			next := skipToken(body, i)
			if next < 0 {
				return false
			}
			i = next
		default:
			i++
		}
	}
	return true
}

// staticMemberRE matches what may follow `static` in a class body that can
// be dropped: a block (checked separately) or a method, maybe computed from
// a well-known Symbol.
var staticMemberRE = regexp.MustCompile(`^static\s*(?:\{|(?:async\s+|get\s+|set\s+|\*\s*)*(?:[A-Za-z_$][\w$]*|\[Symbol\.[A-Za-z]+\])\s*\()`)

// pureClasses returns src with every droppable branded class binding
// wrapped as described above, and whether it changed anything.
func pureClasses(src string, loader api.Loader) (string, bool) {
	if !strings.Contains(src, "static {") && !strings.Contains(src, "static{") {
		return src, false
	}
	var sb strings.Builder
	last, changed := 0, false
	for _, m := range classBindingRE.FindAllStringSubmatchIndex(src, -1) {
		if m[0] < last {
			continue
		}
		open := m[1] - 1
		end := matchBrace(src, open)
		if end < 0 || !droppableClassBody(src[open+1:end]) {
			continue
		}
		kw, name, head := src[m[2]:m[3]], src[m[4]:m[5]], src[m[6]:m[7]]
		sb.WriteString(src[last:m[0]])
		// const NAME = class … keeps the class's name (new.target.name).
		sb.WriteString(kw + " " + name + " = /* @__PURE__ */ (() => { const " + name + " = " + head + src[open:end+1] + "; return " + name + "; })()")
		last = end + 1
		changed = true
	}
	if !changed {
		return src, false
	}
	sb.WriteString(src[last:])
	out := sb.String()
	if r := api.Transform(out, api.TransformOptions{Loader: loader, Format: api.FormatESModule, Target: api.ESNext}); len(r.Errors) > 0 {
		return src, false
	}
	return out, true
}

// droppableClassBody reports whether defining a class with this body (the
// text between its braces) has no effect outside the class.
func droppableClassBody(body string) bool {
	found := false
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '{' || c == '(' || c == '[':
			if c == '[' && !strings.HasPrefix(body[i:], "[Symbol.") {
				return false // a computed key runs code at definition
			}
			end := matchBrace(body, i)
			if end < 0 {
				return false
			}
			i = end + 1
		case c == '"' || c == '\'' || c == '`' || c == '/':
			next := skipToken(body, i)
			if next < 0 {
				return false
			}
			i = next
		case strings.HasPrefix(body[i:], "static") && (i == 0 || !isIdentByte(body[i-1])) && (i+6 >= len(body) || !isIdentByte(body[i+6])):
			if !staticMemberRE.MatchString(body[i:]) {
				return false // a static field: its initializer runs at definition
			}
			if open := strings.IndexByte(body[i:], '{'); open >= 0 && strings.TrimSpace(body[i+6:i+open]) == "" {
				end := matchBrace(body, i+open)
				if end < 0 || !droppableStaticBlock(body[i+open+1:end]) {
					return false
				}
				found = true
				i = end + 1
				continue
			}
			i += 6
		default:
			i++
		}
	}
	return found
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

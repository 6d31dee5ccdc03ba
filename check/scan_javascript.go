package check

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2/js"

	"github.com/widgetd/widgetd/cspgen"
)

// jsTok is one significant JavaScript token.
type jsTok struct {
	tt  js.TokenType
	b   []byte
	off int
}

// lexJS returns the significant tokens of src (no whitespace, line breaks or
// comments) with their byte offsets, and the offset lexing stopped at (the
// end of src unless the token limit was hit). Whether a '/' starts a regular
// expression is decided from the previous significant token, as a parser
// would.
func lexJS(src []byte) (toks []jsTok, off int) {
	l := js.NewLexer(lexerInput(src))
	// What was read before a lexer panic stands; off says where it stopped.
	defer recoverLexer(func() { off = min(off, len(src)) })
	for n := 0; n < maxTokens; n++ {
		tt, b := l.Next()
		if tt == js.ErrorToken {
			if len(b) == 0 {
				break
			}
			off += len(b) // the lexer skipped a rune to continue after an error
			continue
		}
		if (tt == js.DivToken || tt == js.DivEqToken) && regexpAllowed(toks) {
			rt, rb := l.RegExp()
			if rt == js.ErrorToken {
				// Not a regular expression after all; keep going as division.
				off += len(b)
				continue
			}
			tt, b = rt, rb
		}
		start := off
		off += len(b)
		switch tt {
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
			continue
		}
		toks = append(toks, jsTok{tt: tt, b: b, off: start})
	}
	return toks, off
}

// regexpAllowed reports whether a '/' after toks starts a regular expression:
// true unless the previous token ends an expression.
func regexpAllowed(toks []jsTok) bool {
	if len(toks) == 0 {
		return true
	}
	p := toks[len(toks)-1]
	switch p.tt {
	case js.IdentifierToken, js.StringToken, js.TemplateToken, js.TemplateEndToken, js.RegExpToken,
		js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken, js.PrivateIdentifierToken,
		js.ThisToken, js.SuperToken, js.NullToken, js.TrueToken, js.FalseToken, js.IncrToken, js.DecrToken:
		return false
	}
	if p.tt&0x0100 != 0 { // numeric literals
		return false
	}
	if js.IsIdentifierName(p.tt) && !js.IsReservedWord(p.tt) {
		return false // contextual keywords used as names (of, async, get ...)
	}
	return true
}

// sink describes a call whose first URL argument the browser loads.
type sink struct {
	dir cspgen.Directive
	via string
}

// callSinks are global functions that load their first argument.
var callSinks = map[string]sink{
	"fetch":         {cspgen.ConnectSrc, "fetch()"},
	"importScripts": {cspgen.ScriptSrc, "importScripts()"},
}

// newSinks are constructors that load their first argument.
var newSinks = map[string]sink{
	"WebSocket":    {cspgen.ConnectSrc, "new WebSocket()"},
	"EventSource":  {cspgen.ConnectSrc, "new EventSource()"},
	"Request":      {cspgen.ConnectSrc, "new Request()"},
	"Worker":       {cspgen.ScriptSrc, "new Worker()"},
	"SharedWorker": {cspgen.ScriptSrc, "new SharedWorker()"},
	"Audio":        {cspgen.MediaSrc, "new Audio()"},
}

// globalObjects are the names a global is reached through (window.fetch).
var globalObjects = map[string]bool{"window": true, "globalThis": true, "self": true}

var httpMethods = map[string]bool{"GET": true, "POST": true, "PUT": true, "DELETE": true, "PATCH": true, "HEAD": true, "OPTIONS": true}

// jsScanner holds the state of one JavaScript scan.
type jsScanner struct {
	t      []jsTok
	base   int
	consts map[string]string // identifier → URL literal it is bound to, once
	res    *scanResult
}

// scanJS scans JavaScript source for the URLs it loads and for eval.
//
// A URL counts only where the code visibly loads it: the first argument of
// fetch, importScripts, import(), navigator.sendBeacon, XMLHttpRequest
// open(method, url) and new WebSocket/EventSource/Request/Worker/
// SharedWorker/Audio, optionally wrapped in new URL(...); and every ws:// or
// wss:// literal (only WebSocket uses those schemes). The argument may be a
// string or template literal, a literal prefix of a concatenation or template
// (when the prefix holds the whole origin), or an identifier bound to a URL
// literal exactly once in the file and used nowhere but in such calls.
// Comments, licence text and string literals that are never handed to a
// loader (XML namespace URIs, error-decoder and documentation links) are not
// URLs the widget reaches and are ignored.
func scanJS(src []byte) scanResult {
	var res scanResult
	scanJSInto(src, 0, &res)
	return res
}

func scanJSInto(src []byte, base int, res *scanResult) {
	toks, end := lexJS(src)
	if end < len(src) {
		res.stop(base + end)
	}
	s := &jsScanner{t: toks, base: base, res: res}
	s.findConsts()
	s.scan()
}

// ident returns the identifier name of token i, or "".
func (s *jsScanner) ident(i int) string {
	if i < 0 || i >= len(s.t) {
		return ""
	}
	if s.t[i].tt == js.IdentifierToken || (js.IsIdentifierName(s.t[i].tt) && !js.IsReservedWord(s.t[i].tt)) {
		return string(s.t[i].b)
	}
	return ""
}

func (s *jsScanner) is(i int, tt js.TokenType) bool {
	return i >= 0 && i < len(s.t) && s.t[i].tt == tt
}

// isGlobalRef reports whether the identifier at i names a global: not a
// property access, unless of window, globalThis or self.
func (s *jsScanner) isGlobalRef(i int) bool {
	if !s.is(i-1, js.DotToken) && !s.is(i-1, js.OptChainToken) {
		return true
	}
	return s.is(i-1, js.DotToken) && globalObjects[s.ident(i-2)] && !s.is(i-3, js.DotToken)
}

// findConsts records identifiers bound to a URL literal exactly once and
// otherwise used only as the first argument of a sink.
func (s *jsScanner) findConsts() {
	bound := map[string]string{}
	ambiguous := map[string]bool{}
	uses := map[string]int{}
	sinkUses := map[string]int{}
	for i := range s.t {
		name := s.ident(i)
		if name == "" || s.is(i-1, js.DotToken) || s.is(i-1, js.OptChainToken) {
			continue
		}
		uses[name]++
		if s.is(i+1, js.EqToken) && (s.is(i+2, js.StringToken) || s.is(i+2, js.TemplateToken)) && s.endsExpr(i+3) {
			v, ok := literalValue(s.t[i+2])
			if _, seen := bound[name]; seen || !ok {
				ambiguous[name] = true
			}
			bound[name] = v
		} else if s.is(i+1, js.EqToken) {
			ambiguous[name] = true
		}
	}
	for i := range s.t {
		if _, ok := s.sinkAt(i); ok {
			arg := s.argStart(i)
			if n := s.ident(arg); n != "" {
				sinkUses[n]++
			} else if s.is(arg, js.TemplateStartToken) && len(s.t[arg].b) == 3 {
				if n := s.ident(arg + 1); n != "" {
					sinkUses[n]++
				}
			}
		}
	}
	s.consts = map[string]string{}
	for name, v := range bound {
		if ambiguous[name] || !looksAbsolute(v) {
			continue
		}
		if uses[name] == 1+sinkUses[name] && sinkUses[name] > 0 {
			s.consts[name] = v
		}
	}
}

// endsExpr reports whether token i ends an expression statement or binding.
func (s *jsScanner) endsExpr(i int) bool {
	if i >= len(s.t) {
		return true
	}
	switch s.t[i].tt {
	case js.CommaToken, js.SemicolonToken, js.CloseBraceToken, js.CloseParenToken:
		return true
	}
	return false
}

// sinkAt reports whether a loading call starts at token i.
func (s *jsScanner) sinkAt(i int) (sink, bool) {
	tok := s.t[i]
	switch {
	case tok.tt == js.ImportToken && s.is(i+1, js.OpenParenToken) && !s.is(i-1, js.DotToken):
		return sink{cspgen.ScriptSrc, "import()"}, true
	case tok.tt == js.NewToken:
		j := i + 1
		if globalObjects[s.ident(j)] && s.is(j+1, js.DotToken) {
			j += 2
		}
		if sk, ok := newSinks[s.ident(j)]; ok && s.is(j+1, js.OpenParenToken) {
			return sk, true
		}
	}
	name := s.ident(i)
	if name == "" || !s.is(i+1, js.OpenParenToken) {
		return sink{}, false
	}
	if sk, ok := callSinks[name]; ok && s.isGlobalRef(i) {
		return sk, true
	}
	if name == "sendBeacon" && s.is(i-1, js.DotToken) {
		return sink{cspgen.ConnectSrc, "navigator.sendBeacon()"}, true
	}
	if name == "open" && s.is(i-1, js.DotToken) && s.is(i+2, js.StringToken) && s.is(i+3, js.CommaToken) {
		if m, ok := literalValue(s.t[i+2]); ok && httpMethods[strings.ToUpper(m)] {
			return sink{cspgen.ConnectSrc, "XMLHttpRequest open()"}, true
		}
	}
	return sink{}, false
}

// argStart returns the token index of the URL argument of the sink at i.
func (s *jsScanner) argStart(i int) int {
	if s.t[i].tt == js.NewToken {
		j := i + 1
		if globalObjects[s.ident(j)] && s.is(j+1, js.DotToken) {
			j += 2
		}
		return j + 2
	}
	if s.ident(i) == "open" {
		return i + 4
	}
	return i + 2
}

// argURL evaluates the URL expression starting at token j: the URL (or its
// prefix) and whether it is partial.
func (s *jsScanner) argURL(j int) (string, bool, bool) {
	if j >= len(s.t) {
		return "", false, false
	}
	// new URL(x) and new URL(x, base).
	if s.is(j, js.NewToken) && s.ident(j+1) == "URL" && s.is(j+2, js.OpenParenToken) {
		return s.argURL(j + 3)
	}
	var v string
	next := j + 1
	switch tok := s.t[j]; tok.tt {
	case js.StringToken, js.TemplateToken:
		lv, ok := literalValue(tok)
		if !ok {
			return "", false, false
		}
		v = lv
	case js.TemplateStartToken:
		head, ok := templatePart(tok.b)
		if !ok {
			return "", false, false
		}
		if head == "" {
			// `${API}/path...`: the substitution is a known constant.
			c, known := s.consts[s.ident(j+1)]
			if !known || !(s.is(j+2, js.TemplateMiddleToken) || s.is(j+2, js.TemplateEndToken)) {
				return "", false, false
			}
			rest, ok := templatePart(s.t[j+2].b)
			if !ok {
				return "", false, false
			}
			return c + rest, s.is(j+2, js.TemplateMiddleToken) || !s.endsArg(j+3), true
		}
		return head, true, true
	default:
		c, known := s.consts[s.ident(j)]
		if !known {
			return "", false, false
		}
		v = c
	}
	return v, !s.endsArg(next), true
}

// endsArg reports whether token i ends a call argument.
func (s *jsScanner) endsArg(i int) bool {
	return i >= len(s.t) || s.t[i].tt == js.CloseParenToken || s.t[i].tt == js.CommaToken
}

func (s *jsScanner) scan() {
	consumed := map[int]bool{}
	for i := range s.t {
		tok := s.t[i]
		if sk, ok := s.sinkAt(i); ok {
			arg := s.argStart(i)
			if u, partial, ok := s.argURL(arg); ok {
				if r, ok := makeRef(u, partial, sk.dir, s.base+tok.off, sk.via); ok {
					s.res.Refs = append(s.res.Refs, r)
				}
				if arg < len(s.t) {
					consumed[arg] = true
				}
			}
			continue
		}
		if refs, lit := s.imageRefsAt(i); len(refs) > 0 || lit >= 0 {
			s.res.Refs = append(s.res.Refs, refs...)
			consumed[lit] = true
		}
		if tok.tt == js.StringToken || tok.tt == js.TemplateToken || tok.tt == js.TemplateStartToken {
			if consumed[i] {
				continue
			}
			var v string
			var ok, partial bool
			if tok.tt == js.TemplateStartToken {
				v, ok = templatePart(tok.b)
				partial = true
			} else {
				v, ok = literalValue(tok)
				partial = !s.endsArg(i+1) && !s.endsExpr(i+1)
			}
			if ok && (hasPrefixFold(v, "ws://") || hasPrefixFold(v, "wss://")) {
				if r, ok := makeRef(v, partial, cspgen.ConnectSrc, s.base+tok.off, "WebSocket URL literal"); ok {
					s.res.Refs = append(s.res.Refs, r)
				}
			}
			continue
		}
		name := s.ident(i)
		if name == "eval" && s.isGlobalRef(i) && !s.is(i-1, js.TypeofToken) && !s.is(i-1, js.FunctionToken) &&
			!s.is(i+1, js.ColonToken) && !s.is(i+1, js.EqToken) {
			// Direct eval(...), and indirect (0,eval)(...) or f=eval: any
			// read of the global compiles code at run time.
			s.res.Evals = append(s.res.Evals, evalUse{Offset: s.base + tok.off, Via: "eval()"})
			continue
		}
		if name == "" || !s.is(i+1, js.OpenParenToken) {
			continue
		}
		switch {
		case name == "Function" && s.isGlobalRef(i) && !s.is(i-1, js.FunctionToken):
			via := "Function()"
			off := tok.off
			if s.is(i-1, js.NewToken) {
				via, off = "new Function()", s.t[i-1].off
			}
			s.res.Evals = append(s.res.Evals, evalUse{Offset: s.base + off, Via: via})
		case (name == "setTimeout" || name == "setInterval") && s.isGlobalRef(i) &&
			(s.is(i+2, js.StringToken) || s.is(i+2, js.TemplateToken) || s.is(i+2, js.TemplateStartToken)):
			s.res.Evals = append(s.res.Evals, evalUse{Offset: s.base + tok.off, Via: name + "(string)"})
		}
	}
}

// literalValue returns the value of a string or substitution-free template
// token, or false when it holds escapes the scanner does not decode.
func literalValue(t jsTok) (string, bool) {
	if t.tt == js.TemplateToken {
		return templatePart(t.b)
	}
	if len(t.b) < 2 {
		return "", false
	}
	return unescapeJS(t.b[1 : len(t.b)-1])
}

// templatePart returns the literal text of a template token (`...`, `...${,
// }...${ or }...`).
func templatePart(b []byte) (string, bool) {
	if len(b) > 0 && (b[0] == '`' || b[0] == '}') {
		b = b[1:]
	}
	switch {
	case bytes.HasSuffix(b, []byte("${")):
		b = b[:len(b)-2]
	case bytes.HasSuffix(b, []byte("`")):
		b = b[:len(b)-1]
	}
	return unescapeJS(b)
}

// unescapeJS decodes the escapes of a string literal body. It reports false
// for malformed escapes.
func unescapeJS(b []byte) (string, bool) {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b), true
	}
	var sb strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			sb.WriteByte(c)
			continue
		}
		i++
		if i >= len(b) {
			return "", false
		}
		switch c = b[i]; c {
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case 'b', 'f', 'v', '0':
			sb.WriteByte(' ')
		case '\r', '\n':
			// line continuation
		case 'x':
			if i+2 >= len(b) {
				return "", false
			}
			n, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8)
			if err != nil {
				return "", false
			}
			sb.WriteRune(rune(n))
			i += 2
		case 'u':
			var hex []byte
			if i+1 < len(b) && b[i+1] == '{' {
				end := bytes.IndexByte(b[i+1:], '}')
				if end < 0 {
					return "", false
				}
				hex = b[i+2 : i+1+end]
				i += 1 + end
			} else {
				if i+4 >= len(b) {
					return "", false
				}
				hex = b[i+1 : i+5]
				i += 4
			}
			n, err := strconv.ParseUint(string(hex), 16, 32)
			if err != nil || n > utf8.MaxRune {
				return "", false
			}
			sb.WriteRune(rune(n))
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), true
}

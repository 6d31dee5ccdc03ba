package check

import (
	"bytes"
	"strings"

	"github.com/tdewolff/parse/v2/css"

	"github.com/widgetd/widgetd/cspgen"
)

// scanCSS scans a stylesheet for the URLs it loads: url() (fonts inside
// @font-face, images elsewhere) and @import.
func scanCSS(src []byte) scanResult {
	var res scanResult
	scanCSSInto(src, 0, &res)
	return res
}

func scanCSSInto(src []byte, base int, res *scanResult) {
	l := css.NewLexer(lexerInput(src))
	off := 0
	defer recoverLexer(func() { res.stop(base + min(off, len(src))) })
	depth := 0
	fontFaceDepth := -1 // brace depth of the open @font-face block
	pendingFontFace, inImport := false, false
	pendingURLFunc := -1
	for n := 0; n < maxTokens; n++ {
		tt, b := l.Next()
		if tt == css.ErrorToken {
			break
		}
		start := off
		off += len(b)
		dir, via := cspgen.ImgSrc, "url()"
		if fontFaceDepth >= 0 {
			dir, via = cspgen.FontSrc, "@font-face url()"
		}
		if inImport {
			dir, via = cspgen.StyleSrc, "@import"
		}
		switch tt {
		case css.AtKeywordToken:
			name := strings.ToLower(string(b))
			pendingFontFace = name == "@font-face"
			inImport = name == "@import"
		case css.LeftBraceToken:
			depth++
			if pendingFontFace {
				fontFaceDepth, pendingFontFace = depth, false
			}
			inImport = false
		case css.RightBraceToken:
			if depth == fontFaceDepth {
				fontFaceDepth = -1
			}
			depth--
		case css.SemicolonToken:
			inImport, pendingFontFace = false, false
		case css.URLToken:
			if u, ok := cssURL(b); ok {
				if r, ok := makeRef(u, false, dir, base+start, via); ok {
					res.Refs = append(res.Refs, r)
				}
			}
		case css.FunctionToken:
			if strings.EqualFold(string(b), "url(") || strings.EqualFold(string(b), "src(") {
				pendingURLFunc = start
				continue
			}
		case css.StringToken:
			if pendingURLFunc >= 0 || inImport {
				at := start
				if pendingURLFunc >= 0 {
					at = pendingURLFunc
				}
				if u, ok := cssString(b); ok {
					if r, ok := makeRef(u, false, dir, base+at, via); ok {
						res.Refs = append(res.Refs, r)
					}
				}
			}
		case css.WhitespaceToken, css.CommentToken:
			continue
		}
		pendingURLFunc = -1
	}
}

// cssURL returns the URL inside an unquoted url(...) token.
func cssURL(b []byte) (string, bool) {
	s := string(b)
	i := strings.IndexByte(s, '(')
	if i < 0 || !strings.HasSuffix(s, ")") {
		return "", false
	}
	s = strings.TrimSpace(s[i+1 : len(s)-1])
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	}
	if strings.IndexByte(s, '\\') >= 0 {
		return "", false
	}
	return s, true
}

// cssString returns the value of a quoted CSS string token.
func cssString(b []byte) (string, bool) {
	if len(b) < 2 || bytes.IndexByte(b, '\\') >= 0 {
		return "", false
	}
	return string(b[1 : len(b)-1]), true
}

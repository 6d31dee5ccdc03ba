package check

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/widgetd/widgetd/cspgen"
)

// Images a script loads by assignment rather than by a call: the browser
// fetches an image as soon as `src` or `srcset` of an image element is set,
// attached to the document or not.

// imageBindingReach is how many tokens back the scanner looks for the
// binding of the object whose `src` is set. Minified code reuses short names
// across scopes, so only a binding close before the assignment is trusted
// to be the same variable.
const imageBindingReach = 64

// imageTags are the element names whose props a compiled JSX or template
// call (jsx("img", {src: …}), h("img", …), createElementVNode("img", …))
// hands to an element that loads them as images.
var imageTags = map[string]bool{"img": true, "source": true}

// imageRefsAt returns the image loads made at token i: `x.src = "…"` where x
// was just bound to new Image() or createElement("img"), `new Image().src =
// "…"`, `x.srcset = "…"` on any object (only images have srcset), and the
// src/srcSet props of a compiled `"img"` element. It reports the index of
// the literal it read, so the caller does not read it again, or -1.
func (s *jsScanner) imageRefsAt(i int) ([]urlRef, int) {
	if s.t[i].tt == js.StringToken && s.is(i+1, js.CommaToken) && s.is(i+2, js.OpenBraceToken) {
		if tag, ok := literalValue(s.t[i]); ok && imageTags[tag] {
			return s.imagePropRefs(tag, i+2), -1
		}
		return nil, -1
	}
	prop := s.ident(i)
	if (prop != "src" && prop != "srcset") || !s.is(i-1, js.DotToken) || !s.is(i+1, js.EqToken) {
		return nil, -1
	}
	lit := i + 2
	if !s.is(lit, js.StringToken) && !s.is(lit, js.TemplateToken) && !s.is(lit, js.TemplateStartToken) {
		return nil, -1
	}
	obj, ok := s.imageObjectAt(i - 2)
	if !ok && prop == "src" {
		return nil, -1
	}
	if obj < 0 {
		obj = i
	}
	v, partial, ok := s.literalAt(lit)
	if !ok {
		return nil, -1
	}
	via := "image ." + prop + " ="
	if prop == "srcset" {
		return srcsetRefs(v, s.base+s.t[obj].off, via), lit
	}
	if r, ok := makeRef(v, partial, cspgen.ImgSrc, s.base+s.t[obj].off, via); ok {
		return []urlRef{r}, lit
	}
	return nil, lit
}

// literalAt reads the string or template literal at token j: its value (or
// known prefix) and whether it is only a prefix.
func (s *jsScanner) literalAt(j int) (string, bool, bool) {
	if s.t[j].tt == js.TemplateStartToken {
		v, ok := templatePart(s.t[j].b)
		return v, true, ok
	}
	v, ok := literalValue(s.t[j])
	return v, ok && !s.endsArg(j+1) && !s.endsExpr(j+1), ok
}

// imageObjectAt reports whether the expression ending at token end is an
// image element, and the token where it starts: `new Image(…)`, `(new
// Image)`, or an identifier bound just before to one of those or to
// createElement("img").
func (s *jsScanner) imageObjectAt(end int) (int, bool) {
	if end < 0 {
		return -1, false
	}
	if s.is(end, js.CloseParenToken) {
		open := s.matchingOpen(end)
		switch {
		case open >= 2 && s.ident(open-1) == "Image" && s.is(open-2, js.NewToken):
			return open - 2, true // new Image(…)
		case open >= 0 && s.is(open+1, js.NewToken) && s.ident(open+2) == "Image":
			return open, true // (new Image) and (new Image(…))
		}
		return -1, false
	}
	name := s.ident(end)
	if name == "" || s.is(end-1, js.DotToken) || s.is(end-1, js.OptChainToken) {
		return -1, false
	}
	for j := end - 1; j >= 0 && j >= end-imageBindingReach; j-- {
		if s.ident(j) == name && s.is(j+1, js.EqToken) && !s.is(j-1, js.DotToken) {
			return end, s.createsImage(j + 2)
		}
	}
	return end, false
}

// createsImage reports whether the expression at token j creates an image
// element: new Image / new Image(…) or ….createElement("img").
func (s *jsScanner) createsImage(j int) bool {
	if s.is(j, js.NewToken) && s.ident(j+1) == "Image" {
		return true
	}
	for k := j; k < len(s.t) && k < j+4; k++ {
		if s.ident(k) == "createElement" && s.is(k+1, js.OpenParenToken) && s.is(k+2, js.StringToken) && s.is(k+3, js.CloseParenToken) {
			tag, ok := literalValue(s.t[k+2])
			return ok && strings.EqualFold(tag, "img")
		}
	}
	return false
}

// matchingOpen returns the index of the '(' that the ')' at close closes,
// or -1.
func (s *jsScanner) matchingOpen(close int) int {
	depth := 0
	for j := close; j >= 0 && j > close-imageBindingReach; j-- {
		switch s.t[j].tt {
		case js.CloseParenToken:
			depth++
		case js.OpenParenToken:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// imagePropRefs returns the src and srcSet props, given as literals at the
// top level of the object literal opening at token open, of a compiled tag
// element.
func (s *jsScanner) imagePropRefs(tag string, open int) []urlRef {
	var out []urlRef
	depth := 0
	for j := open; j < len(s.t); j++ {
		switch s.t[j].tt {
		case js.OpenBraceToken, js.OpenBracketToken, js.OpenParenToken, js.TemplateStartToken:
			depth++
		case js.CloseBraceToken, js.CloseBracketToken, js.CloseParenToken, js.TemplateEndToken:
			depth--
		}
		if depth == 0 {
			break
		}
		if depth != 1 || !s.is(j+1, js.ColonToken) || (s.is(j-1, js.ColonToken) || !(s.is(j-1, js.OpenBraceToken) || s.is(j-1, js.CommaToken))) {
			continue
		}
		key := s.ident(j)
		if s.t[j].tt == js.StringToken {
			key, _ = literalValue(s.t[j])
		}
		lit := j + 2
		if !s.is(lit, js.StringToken) && !s.is(lit, js.TemplateToken) && !s.is(lit, js.TemplateStartToken) {
			continue
		}
		v, partial, ok := s.literalAt(lit)
		if !ok {
			continue
		}
		switch {
		case key == "src" && tag == "img":
			if r, ok := makeRef(v, partial, cspgen.ImgSrc, s.base+s.t[j].off, "<img src> (JSX)"); ok {
				out = append(out, r)
			}
		case key == "srcSet" || key == "srcset":
			out = append(out, srcsetRefs(v, s.base+s.t[j].off, "<"+tag+" srcset> (JSX)")...)
		}
	}
	return out
}

// srcsetRefs returns the image URLs of a srcset value ("a.png 1x, b.png
// 2x"), each at off.
func srcsetRefs(val string, off int, via string) []urlRef {
	var out []urlRef
	for _, c := range srcsetCandidates(val) {
		if r, ok := makeRef(c.url, false, cspgen.ImgSrc, off, via); ok {
			out = append(out, r)
		}
	}
	return out
}

// srcsetCandidate is one image candidate of a srcset value and its byte
// offset in the value.
type srcsetCandidate struct {
	url string
	at  int
}

// srcsetCandidates splits a srcset value into its image candidates.
func srcsetCandidates(val string) []srcsetCandidate {
	var out []srcsetCandidate
	pos := 0
	for _, cand := range strings.Split(val, ",") {
		if f := strings.Fields(cand); len(f) > 0 {
			out = append(out, srcsetCandidate{url: f[0], at: pos + strings.Index(cand, f[0])})
		}
		pos += len(cand) + 1
	}
	return out
}

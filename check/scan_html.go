package check

import (
	"bytes"
	"errors"
	stdhtml "html"
	"io"
	"strings"

	"github.com/tdewolff/parse/v2/html"

	"github.com/widgetd/widgetd/cspgen"
)

// htmlDoc is what the structure rules need to know about a document.
type htmlDoc struct {
	firstToken    html.TokenType // first token that is not whitespace text or a comment
	firstText     []byte
	doctype       string // doctype text, lowercased and trimmed; "" when none
	charsetEnd    int    // offset just past the first charset declaration; -1 when none
	charset       string // declared charset, lowercased
	tagCount      map[string]int
	tagOffset     map[string]int // first start-tag offset of html, head, body
	bodyContentAt int            // offset of the first element that can only be in body; -1
	headAfterBody bool
	unterminated  bool // the lexer stopped on an error before the end
}

// headOnly are elements whose start tag does not imply <body>.
var headOnly = map[string]bool{"html": true, "head": true, "title": true, "meta": true, "link": true, "style": true, "script": true, "base": true, "noscript": true, "template": true, "body": true}

// scanHTMLResult scans an HTML document: the URLs its elements load, its inline
// scripts and styles (scanned as JavaScript and CSS, offsets in the
// document), and hazards inside inline scripts.
func scanHTMLResult(src []byte) scanResult {
	res, _ := scanHTML(src)
	return res
}

// attr is one attribute of the current start tag.
type attr struct {
	key, val string
	off      int // offset of the value (or the attribute when it has none)
}

func scanHTML(src []byte) (res scanResult, doc *htmlDoc) {
	doc = &htmlDoc{charsetEnd: -1, tagCount: map[string]int{}, tagOffset: map[string]int{}, bodyContentAt: -1}
	l := html.NewLexer(lexerInput(src))
	off := 0
	// After a lexer panic, keep what was found and record where scanning
	// stopped.
	defer recoverLexer(func() {
		res.stop(min(off, len(src)))
		doc.unterminated = true
	})
	var tag string
	var tagOff int
	var attrs []attr
	var rawTag string // the element whose raw text comes next
	var rawAttrs []attr
	for n := 0; n < maxTokens; n++ {
		tt, b := l.Next()
		if tt == html.ErrorToken {
			break
		}
		start := off
		off += len(b)
		if doc.firstToken == 0 {
			switch {
			case tt == html.TextToken && len(bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))) == 0:
			case tt == html.CommentToken:
			default:
				doc.firstToken, doc.firstText = tt, b
			}
		}
		switch tt {
		case html.DoctypeToken:
			if doc.doctype == "" {
				doc.doctype = strings.ToLower(strings.TrimSpace(string(l.Text())))
			}
		case html.StartTagToken:
			tag, tagOff, attrs = string(l.Text()), start, attrs[:0]
		case html.AttributeToken:
			val := l.AttrVal()
			a := attr{key: string(l.AttrKey()), off: off - len(val)}
			if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] {
				a.val, a.off = string(val[1:len(val)-1]), a.off+1
			} else {
				a.val = string(val)
			}
			a.val = stdhtml.UnescapeString(a.val)
			attrs = append(attrs, a)
		case html.StartTagCloseToken, html.StartTagVoidToken:
			doc.element(tag, tagOff, attrs)
			elementRefs(&res, tag, attrs)
			if tt == html.StartTagCloseToken && (tag == "script" || tag == "style") {
				rawTag, rawAttrs = tag, append([]attr(nil), attrs...)
			} else {
				rawTag = ""
			}
			continue
		case html.TextToken:
			if rawTag != "" {
				body := src[start:off]
				switch rawTag {
				case "script":
					if isJSType(attrValue(rawAttrs, "type")) && !hasAttr(rawAttrs, "src") {
						res.Scripts = append(res.Scripts, inlineBody{Offset: start, Text: body, Module: strings.EqualFold(attrValue(rawAttrs, "type"), "module")})
						scanJSInto(body, start, &res)
						scriptHazards(&res, body, start)
					}
				case "style":
					scanCSSInto(body, start, &res)
				}
			}
		case html.SVGToken, html.MathToken:
			doc.element(strings.TrimPrefix(strings.ToLower(string(b[:min(len(b), 4)])), "<"), start, nil)
		}
		rawTag = ""
	}
	if err := l.Err(); err != nil && !errors.Is(err, io.EOF) {
		doc.unterminated = true
	}
	return res, doc
}

// element records a start tag for the structure rules.
func (doc *htmlDoc) element(tag string, off int, attrs []attr) {
	switch tag {
	case "html", "head", "body":
		doc.tagCount[tag]++
		if _, ok := doc.tagOffset[tag]; !ok {
			doc.tagOffset[tag] = off
		}
		if tag == "head" && (doc.tagCount["body"] > 0 || doc.bodyContentAt >= 0) {
			doc.headAfterBody = true
		}
	case "meta":
		if doc.charsetEnd >= 0 {
			return
		}
		cs := attrValue(attrs, "charset")
		if cs == "" && strings.EqualFold(attrValue(attrs, "http-equiv"), "content-type") {
			ct := strings.ToLower(attrValue(attrs, "content"))
			if i := strings.Index(ct, "charset="); i >= 0 {
				cs = strings.Trim(ct[i+len("charset="):], `"' ;`)
			}
		}
		if cs != "" {
			doc.charset = strings.ToLower(strings.TrimSpace(cs))
			doc.charsetEnd = off + 1 // the tag starts here; refined by the caller's limit check
			for _, a := range attrs {
				doc.charsetEnd = max(doc.charsetEnd, a.off+len(a.val)+1)
			}
		}
	}
	if !headOnly[tag] && doc.bodyContentAt < 0 {
		doc.bodyContentAt = off
	}
}

func attrValue(attrs []attr, key string) string {
	for _, a := range attrs {
		if a.key == key {
			return a.val
		}
	}
	return ""
}

func hasAttr(attrs []attr, key string) bool {
	for _, a := range attrs {
		if a.key == key {
			return true
		}
	}
	return false
}

func findAttr(attrs []attr, key string) (attr, bool) {
	for _, a := range attrs {
		if a.key == key {
			return a, true
		}
	}
	return attr{}, false
}

// isJSType reports whether a script type attribute value runs JavaScript.
func isJSType(t string) bool {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript":
		return true
	}
	return false
}

// elementRefs records the URLs an element loads.
func elementRefs(res *scanResult, tag string, attrs []attr) {
	add := func(key string, dir cspgen.Directive) {
		if a, ok := findAttr(attrs, key); ok {
			if r, ok := makeRef(a.val, false, dir, a.off, "<"+tag+" "+key+">"); ok {
				res.Refs = append(res.Refs, r)
			}
		}
	}
	addSrcset := func(dir cspgen.Directive) {
		a, ok := findAttr(attrs, "srcset")
		if !ok {
			return
		}
		for _, c := range srcsetCandidates(a.val) {
			if r, ok := makeRef(c.url, false, dir, a.off+c.at, "<"+tag+" srcset>"); ok {
				res.Refs = append(res.Refs, r)
			}
		}
	}
	switch tag {
	case "script":
		add("src", cspgen.ScriptSrc)
	case "link":
		rels := strings.Fields(strings.ToLower(attrValue(attrs, "rel")))
		for _, rel := range rels {
			switch rel {
			case "stylesheet":
				add("href", cspgen.StyleSrc)
			case "modulepreload":
				add("href", cspgen.ScriptSrc)
			case "icon", "apple-touch-icon":
				add("href", cspgen.ImgSrc)
			case "preload", "prefetch":
				switch strings.ToLower(attrValue(attrs, "as")) {
				case "script", "worker":
					add("href", cspgen.ScriptSrc)
				case "style":
					add("href", cspgen.StyleSrc)
				case "font":
					add("href", cspgen.FontSrc)
				case "image":
					add("href", cspgen.ImgSrc)
				case "audio", "video", "track":
					add("href", cspgen.MediaSrc)
				case "fetch":
					add("href", cspgen.ConnectSrc)
				}
			}
		}
	case "img":
		add("src", cspgen.ImgSrc)
		addSrcset(cspgen.ImgSrc)
	case "source":
		add("src", cspgen.MediaSrc)
		addSrcset(cspgen.ImgSrc)
	case "input":
		if strings.EqualFold(attrValue(attrs, "type"), "image") {
			add("src", cspgen.ImgSrc)
		}
	case "video":
		add("src", cspgen.MediaSrc)
		add("poster", cspgen.ImgSrc)
	case "audio", "track":
		add("src", cspgen.MediaSrc)
	case "iframe", "frame":
		add("src", cspgen.FrameSrc)
	case "base":
		add("href", cspgen.BaseURI)
	}
	if a, ok := findAttr(attrs, "style"); ok {
		scanCSSInto([]byte("*{"+a.val+"}"), a.off-2, res)
	}
}

// scriptHazards flags "<!--" in an inline script: it switches the HTML
// parser into the script-data-escaped state, and a "<script" after it into
// the double-escaped state where the real </script> no longer ends the
// element. A lone "<script" is harmless and not flagged.
func scriptHazards(res *scanResult, body []byte, base int) {
	lower := asciiLower(body)
	i := bytes.Index(lower, []byte("<!--"))
	if i < 0 {
		return
	}
	msg := `inline script contains "<!--", which switches the HTML parser into the script-data-escaped state`
	if bytes.Contains(lower[i:], []byte("<script")) {
		msg += `; the "<script" after it makes the parser skip the real </script>, swallowing the rest of the document`
	} else {
		msg += `; one "<script" added later (a dependency update is enough) swallows the rest of the document`
	}
	res.Hazards = append(res.Hazards, hazard{Offset: base + i, Message: msg})
}

// asciiLower lower-cases ASCII letters only, so offsets into the result are
// offsets into b (bytes.ToLower rewrites invalid UTF-8 and can change lengths).
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

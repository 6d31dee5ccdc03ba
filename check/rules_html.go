package check

import (
	"fmt"
	"strings"

	"github.com/tdewolff/parse/v2/html"
	"github.com/tdewolff/parse/v2/js"

	"github.com/widgetd/widgetd/assets/audit"
)

// htmlRules checks the widget's HTML document f: a valid HTML5 document
// with a charset, and inline scripts a browser parses as written.
func (c *widgetCheck) htmlRules(f scanned) {
	doc := f.doc
	fix := "start the document with <!doctype html><html><head><meta charset=\"utf-8\">…</head><body>…</body></html>"
	if doc.firstToken != html.DoctypeToken || doc.doctype == "" {
		c.add(RuleHTMLInvalid, audit.Error, f.path, 0, fix, "the document does not start with <!doctype html>; MCP Apps requires a valid HTML5 document and browsers render it in quirks mode")
	} else if doc.doctype != "html" {
		c.add(RuleHTMLInvalid, audit.Error, f.path, 0, fix, "the doctype is %q, not the HTML5 <!doctype html>", doc.doctype)
	}
	switch {
	case doc.charsetEnd < 0:
		c.add(RuleHTMLInvalid, audit.Error, f.path, -1, `add <meta charset="utf-8"> at the start of <head>`, "the document declares no character encoding")
	case doc.charset != "utf-8" && doc.charset != "utf8":
		c.add(RuleHTMLInvalid, audit.Error, f.path, -1, `declare <meta charset="utf-8">`, "the document declares charset %q; HTML5 documents must be UTF-8", doc.charset)
	case doc.charsetEnd > 1024:
		c.add(RuleHTMLInvalid, audit.Error, f.path, -1, `move <meta charset="utf-8"> to the start of <head>`, "the charset declaration ends at byte %d; HTML5 requires it within the first 1024 bytes", doc.charsetEnd)
	}
	for _, t := range []string{"html", "head", "body"} {
		if doc.tagCount[t] > 1 {
			c.add(RuleHTMLInvalid, audit.Error, f.path, doc.tagOffset[t], "keep one <"+t+"> element", "the document has %d <%s> start tags", doc.tagCount[t], t)
		}
	}
	if doc.headAfterBody {
		c.add(RuleHTMLInvalid, audit.Error, f.path, doc.tagOffset["head"], "put <head> before any body content", "<head> comes after body content")
	}
	if doc.unterminated {
		c.add(RuleHTMLInvalid, audit.Error, f.path, -1, "close every tag and element", "the document ends inside a tag or element")
	}
	for _, h := range f.res.Hazards {
		c.add(RuleInlineScriptHazard, audit.Error, f.path, h.Offset, `escape it in the source (write "<\!--", "<\/script" or split the string); the bundler's minifier keeps it verbatim`, "%s", h.Message)
	}
	for _, s := range f.res.Scripts {
		if err := parseScript(s); err != nil {
			// Point at where the element ended: the "</script" that cut it.
			c.add(RuleInlineScriptHazard, audit.Error, f.path, s.Offset+len(s.Text), `if the code holds "</script" in a string, write "<\/script"; otherwise fix the syntax error`,
				"inline script does not parse (%v); a \"</script\" inside it ends the element early and leaves the rest as page text", err)
		}
	}
}

// parseScript parses an inline script with a full JavaScript parser.
func parseScript(s inlineBody) (err error) {
	defer recoverLexer(func() { err = nil }) // a parser failure is not evidence of a hazard
	if _, perr := js.Parse(lexerInput(s.Text), js.Options{}); perr != nil {
		msg := perr.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}

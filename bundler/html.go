package bundler

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tdewolff/minify/v2"
	minhtml "github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/parse/v2"
	lexhtml "github.com/tdewolff/parse/v2/html"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/bundler/strictjson"
	"github.com/widgetd/widgetd/diag"
)

// htmlEntry is a widget's own HTML document with its local module scripts and
// stylesheets taken out; the bundled outputs go where the first of each was.
type htmlEntry struct {
	// imports are the removed scripts and stylesheets as import specifiers
	// relative to the HTML file's folder, in document order.
	imports []string
	// inlineScripts are the texts of inline <script type="module"> elements;
	// imports name them as inlineScriptImport(i).
	inlineScripts []string
	// before and after surround the insertion point of the bundled JS and CSS.
	before, after []byte
}

// isLocalURL reports whether an HTML src/href refers to a file of the widget
// (as opposed to an absolute or protocol-relative URL or a data: URL).
func isLocalURL(u string) bool {
	l := strings.ToLower(strings.TrimSpace(u))
	for _, p := range []string{"http:", "https:", "//", "data:", "blob:", "mailto:", "#"} {
		if strings.HasPrefix(l, p) {
			return false
		}
	}
	return l != ""
}

// parseHTMLEntry reads a Vite-style HTML entry: a full document whose local
// <script type="module" src> and <link rel="stylesheet" href> tags name the
// sources to bundle. widgetDir is the folder that root-absolute paths ("/src/x.ts")
// resolve against, as Vite resolves them against its project root.
//
// Linked files may be anywhere inside projectDir (a stylesheet shared by the
// project's widgets, say), as Vite allows anything under its root, and must
// pass the build's containment c (real paths, symlinks resolved).
func parseHTMLEntry(file, display, widgetDir, projectDir string, c *containment) (*htmlEntry, error) {
	data, err := readHTMLEntry(file, display, c)
	if err != nil {
		return nil, err
	}
	p := &htmlEntryParser{data: data, display: display, htmlDir: filepath.Dir(file), widgetDir: widgetDir, projectDir: projectDir,
		c: c, e: &htmlEntry{}, insertAt: -1, inlineScript: -1}
	if err := p.scan(); err != nil {
		return nil, err
	}
	return p.entry()
}

// readHTMLEntry reads an HTML entry within the size limit and checks that it
// is UTF-8 (after a byte order mark).
func readHTMLEntry(file, display string, c *containment) ([]byte, error) {
	data, err := c.ReadFile(filepath.Base(file), file, "")
	if isLimitError(err) {
		return nil, limitDiag(display, 0, 0, err)
	}
	if err != nil {
		return nil, diag.Errorf(display, 0, 0, "cannot read HTML entry: %v", unwrapPathErr(err))
	}
	if err := strictjson.CheckUTF8(display, bytes.TrimPrefix(data, []byte(strictjson.UTF8BOM))); err != nil {
		return nil, err
	}
	return data, nil
}

// htmlEntryParser is one parseHTMLEntry run: it copies the document's tokens
// to out, except the tags it takes out of it (into e).
type htmlEntryParser struct {
	data                           []byte // the HTML file
	display                        string // the file as messages show it
	htmlDir, widgetDir, projectDir string
	c                              *containment

	e        *htmlEntry
	out      bytes.Buffer // the document without the removed tags
	insertAt int          // offset in out of the first removed tag, -1 before one
	cur      *htmlTag     // the start tag being read, nil between tags
	// skipUntilScriptEnd drops everything up to the </script> of a removed
	// script; inlineScript is the offset of an inline module script's text,
	// while in one, else -1.
	skipUntilScriptEnd bool
	inlineScript       int
}

// htmlTag is a start tag as read: its name, attributes (unquoted and
// unescaped) with their offsets, and its bytes as written.
type htmlTag struct {
	name  string
	start int
	attrs map[string]string
	pos   map[string]int
	raw   bytes.Buffer
}

// scan lexes the document token by token.
func (p *htmlEntryParser) scan() error {
	l := lexhtml.NewLexer(parse.NewInputBytes(p.data))
	offset := 0
	for {
		tt, tok := l.Next()
		if tt == lexhtml.ErrorToken {
			break
		}
		start := offset
		offset += len(tok)
		keep, err := p.token(l, tt, tok, start, offset)
		if err != nil {
			return err
		}
		if keep {
			p.out.Write(tok)
		}
	}
	if err := l.Err(); err != nil && err.Error() != "EOF" {
		return p.errAt(offset, "cannot parse HTML: %v", err)
	}
	return nil
}

// token takes one token at data[start:end], reporting whether it stays in
// the document as it is.
func (p *htmlEntryParser) token(l *lexhtml.Lexer, tt lexhtml.TokenType, tok []byte, start, end int) (keep bool, err error) {
	switch tt {
	case lexhtml.StartTagToken:
		p.cur = &htmlTag{name: strings.ToLower(string(l.Text())), start: start, attrs: map[string]string{}, pos: map[string]int{}}
		p.cur.raw.Write(tok)
		return false, nil
	case lexhtml.AttributeToken:
		if p.cur != nil {
			p.cur.addAttr(l, tok, start)
			return false, nil
		}
	case lexhtml.StartTagCloseToken, lexhtml.StartTagVoidToken:
		if p.cur != nil {
			p.cur.raw.Write(tok)
			t := p.cur
			p.cur = nil
			return false, p.closeTag(t, end)
		}
	case lexhtml.EndTagToken:
		if p.skipUntilScriptEnd && strings.EqualFold(string(l.Text()), "script") {
			p.skipUntilScriptEnd, p.inlineScript = false, -1
			return false, nil
		}
	case lexhtml.TextToken:
		return p.text(tok, start)
	}
	return true, nil
}

// addAttr records the attribute token tok at offset start.
func (t *htmlTag) addAttr(l *lexhtml.Lexer, tok []byte, start int) {
	k := strings.ToLower(string(l.AttrKey()))
	v := string(l.AttrVal())
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	t.attrs[k] = html.UnescapeString(v)
	t.pos[k] = start + bytes.IndexByte(tok, tok[bytes.IndexFunc(tok, func(r rune) bool { return r != ' ' && r != '\t' && r != '\n' && r != '\r' })])
	t.raw.Write(tok)
}

// closeTag ends start tag t (its last byte at end): it is either taken out
// of the document, marking where the bundle goes, or written as it was.
func (p *htmlEntryParser) closeTag(t *htmlTag, end int) error {
	removed, err := p.take(t, end)
	if err != nil {
		return err
	}
	if !removed {
		p.out.Write(t.raw.Bytes())
	} else if p.insertAt < 0 {
		p.insertAt = p.out.Len()
	}
	return nil
}

// take takes a local module script, inline module script, stylesheet link or
// module preload out of the document, reporting whether it did.
func (p *htmlEntryParser) take(t *htmlTag, end int) (bool, error) {
	switch {
	case t.name == "script" && t.attrs["src"] != "" && isLocalURL(t.attrs["src"]):
		if t.attrs["type"] != "module" {
			return false, p.errAt(t.pos["src"], "local script %q must be <script type=\"module\" src=…> so it can be bundled", t.attrs["src"])
		}
		if err := p.addImport(t, "src"); err != nil {
			return false, err
		}
		p.skipUntilScriptEnd = true
	case t.name == "script" && t.attrs["type"] == "module" && !hasAttr(t.attrs, "src"):
		// Vite bundles inline module scripts; so does widgetd,
		// as a module in the HTML file's folder.
		p.e.imports = append(p.e.imports, inlineScriptImport(len(p.e.inlineScripts)))
		p.e.inlineScripts = append(p.e.inlineScripts, "")
		p.skipUntilScriptEnd, p.inlineScript = true, end
	case t.name == "link" && hasToken(t.attrs["rel"], "stylesheet") && isLocalURL(t.attrs["href"]):
		if err := p.addImport(t, "href"); err != nil {
			return false, err
		}
	case t.name == "link" && hasToken(t.attrs["rel"], "modulepreload") && isLocalURL(t.attrs["href"]):
		// bundled away
	default:
		return false, nil
	}
	return true, nil
}

// addImport adds the file that attribute attr of t names to the imports.
func (p *htmlEntryParser) addImport(t *htmlTag, attr string) error {
	spec, err := localImport(t.attrs[attr], p.htmlDir, p.widgetDir, p.projectDir, p.c)
	if err != nil {
		return p.errAt(t.pos[attr], "%v", err)
	}
	p.e.imports = append(p.e.imports, spec)
	return nil
}

// text takes a text token at offset start: the text of an inline module
// script goes to the entry, the (blank) body of a removed <script src> is
// dropped, other text stays.
func (p *htmlEntryParser) text(tok []byte, start int) (keep bool, err error) {
	if p.inlineScript >= 0 {
		cur := &p.e.inlineScripts[len(p.e.inlineScripts)-1]
		if *cur == "" {
			// Pad so that esbuild's line:col in the script are the
			// line:col in the HTML file.
			line, col, _ := diag.LineCol(p.data, start)
			*cur = strings.Repeat("\n", line-1) + strings.Repeat(" ", col-1)
		}
		*cur += string(tok)
		return false, nil
	}
	if p.skipUntilScriptEnd {
		if len(bytes.TrimSpace(tok)) > 0 {
			return false, p.errAt(start, "a <script src> must be empty; move this code into the module it loads")
		}
		return false, nil
	}
	return true, nil
}

// entry checks that the document loads a script and splits it where the
// bundle goes, adding a doctype when it has none.
func (p *htmlEntryParser) entry() (*htmlEntry, error) {
	if !p.e.hasScript() {
		return nil, p.errAt(0, "no <script type=\"module\"> found; add one that loads the widget's code (e.g. <script type=\"module\" src=\"./src/main.tsx\"></script>)")
	}
	doc := p.out.Bytes()
	insertAt := p.insertAt
	if insertAt < 0 {
		insertAt = len(doc)
	}
	if !bytes.HasPrefix(bytes.ToLower(bytes.TrimSpace(doc)), []byte("<!doctype html")) {
		doc = append([]byte("<!doctype html>"), doc...)
		insertAt += len("<!doctype html>")
	}
	p.e.before = append([]byte(nil), doc[:insertAt]...)
	p.e.after = append([]byte(nil), doc[insertAt:]...)
	return p.e, nil
}

// hasScript reports whether any import is a script (not a stylesheet).
func (e *htmlEntry) hasScript() bool {
	for _, imp := range e.imports {
		if !strings.HasSuffix(strings.ToLower(imp), ".css") && !strings.HasSuffix(strings.ToLower(imp), ".scss") {
			return true
		}
	}
	return false
}

// errAt reports a problem at byte offset off of the document, with its line
// as the source; an error argument gives the diagnostic its code.
func (p *htmlEntryParser) errAt(off int, format string, args ...any) error {
	l, c, src := diag.LineCol(p.data, off)
	d := diag.Errorf(p.display, l, c, format, args...)
	d.Diagnostics[0].Source = src
	if len(args) == 1 {
		if err, ok := args[0].(error); ok {
			d.Diagnostics[0].Code = codeOf(err)
		}
	}
	return d
}

// inlineScriptPrefix marks an import that names an inline module script of
// the widget's HTML entry.
const inlineScriptPrefix = "widgetd-inline-script:"

// inlineScriptImport is the import of the i-th inline module script.
func inlineScriptImport(i int) string { return inlineScriptPrefix + strconv.Itoa(i) }

func hasAttr(attrs map[string]string, k string) bool {
	_, ok := attrs[k]
	return ok
}

// localImport turns an HTML src/href into an import specifier relative to the
// HTML file's folder, checking that the file exists inside the project and
// passes the build's containment c.
func localImport(ref, htmlDir, widgetDir, projectDir string, c *containment) (string, error) {
	ref = strings.TrimSpace(ref)
	if i := strings.IndexAny(ref, "?#"); i >= 0 {
		ref = ref[:i]
	}
	var abs string
	if strings.HasPrefix(ref, "/") {
		abs = filepath.Join(widgetDir, filepath.FromSlash(ref))
	} else {
		abs = filepath.Join(htmlDir, filepath.FromSlash(ref))
	}
	if err := c.Check(ref, abs, ""); err != nil {
		return "", err // outside, a FIFO or device, too large
	}
	if !within(projectDir, abs) && !c.AllowsFile(abs) {
		return "", fmt.Errorf("%q is outside the project (%s); move it inside, or add its folder to \"allowOutside\" in %s", ref, c.Show(projectDir), layout.ProjectConfigFile)
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%q does not exist (looked for %s)", ref, c.Show(abs))
	}
	rel, _ := filepath.Rel(htmlDir, abs)
	rel = filepath.ToSlash(rel)
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel, nil
}

func hasToken(list, tok string) bool {
	for _, f := range strings.Fields(strings.ToLower(list)) {
		if f == tok {
			return true
		}
	}
	return false
}

var (
	// Anchored at a "</" the scanner found (escapeClose): a regular
	// expression over a whole bundle ran at ~100 MB/s, a fifth of the
	// CPU of assembling 500 React widgets; these see a few bytes per "</".
	scriptCloseAt = regexp.MustCompile(`^(?i)</(script)`)
	styleCloseAt  = regexp.MustCompile(`^(?i)</(style)`)
)

// escapeClose rewrites every match of at (anchored, "</" + a tag name) in src
// to "<\/" + the name as written, scanning src for "</" with bytes.Index.
// The result equals regexp ReplaceAll of the unanchored pattern with
// "<\/$1": matches start at "</" and cannot overlap (the names hold no
// "<"). src is returned as is when nothing matches.
func escapeClose(src []byte, at *regexp.Regexp) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(src); {
		j := bytes.Index(src[i:], []byte("</"))
		if j < 0 {
			break
		}
		i += j
		win := src[i:min(len(src), i+24)]
		if m := at.FindSubmatchIndex(win); m != nil {
			out = append(out, src[last:i]...)
			out = append(out, `<\/`...)
			out = append(out, win[m[2]:m[3]]...)
			i += m[1]
			last = i
			continue
		}
		i += 2
	}
	if out == nil {
		return src
	}
	return append(out, src[last:]...)
}

// escapeInlineScript makes JS safe inside <script>…</script>: "</script" and
// "<!--" can only occur in esbuild's minified output inside string, template
// or regular-expression literals, where "<\/" and "<\!--" mean the same.
func escapeInlineScript(js []byte) []byte {
	js = escapeClose(js, scriptCloseAt)
	if !bytes.Contains(js, []byte("<!--")) {
		return js
	}
	return bytes.ReplaceAll(js, []byte("<!--"), []byte(`<\!--`))
}

// escapeInlineStyle makes CSS safe inside <style>…</style>.
func escapeInlineStyle(css []byte) []byte {
	return escapeClose(css, styleCloseAt)
}

// renderHTML assembles a widget's document: inline (JS and CSS in the page) or
// external (tags pointing at jsURL and cssURL).
func renderHTML(e *htmlEntry, js, css []byte, jsURL, cssURL string, inline bool) []byte {
	var b bytes.Buffer
	b.Write(e.before)
	if inline {
		if len(bytes.TrimSpace(css)) > 0 {
			b.WriteString("<style>")
			b.Write(escapeInlineStyle(bytes.TrimSpace(css)))
			b.WriteString("</style>")
		}
		b.WriteString(`<script type="module">`)
		b.Write(escapeInlineScript(bytes.TrimSpace(js)))
		b.WriteString("</script>")
	} else {
		if cssURL != "" {
			fmt.Fprintf(&b, `<link rel="stylesheet" crossorigin href="%s">`, html.EscapeString(cssURL))
		}
		fmt.Fprintf(&b, `<script type="module" crossorigin src="%s"></script>`, html.EscapeString(jsURL))
	}
	b.Write(e.after)
	return b.Bytes()
}

// newMinifier returns the HTML minifier. Module scripts are not registered:
// esbuild already minified them, and tdewolff would drop the </script escaping
// (reference go-stack.md §2). Classic inline scripts and styles of the widget's
// own HTML are minified with escaping kept.
func newMinifier() *minify.M {
	m := minify.New()
	m.Add("text/html", &minhtml.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepDefaultAttrVals: true, KeepQuotes: true, KeepSpecialComments: true})
	m.AddFuncRegexp(regexp.MustCompile(`^(application|text)/(x-)?(java|ecma)script$`), js.Minify)
	return m
}

// minifyHTML minifies a document, reporting a failure against the widget's entry.
func minifyHTML(m *minify.M, display string, doc []byte) ([]byte, error) {
	out, err := m.Bytes("text/html", doc)
	if err != nil {
		return nil, diag.Errorf(display, 0, 0, "cannot minify HTML: %v", err)
	}
	return out, nil
}

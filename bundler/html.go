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
	// head and tail surround the insertion point of the bundled JS and CSS.
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
	if err := c.checkSize(filepath.Base(file), file); err != nil {
		return nil, limitDiag(display, 0, 0, err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, diagErr(display, 0, 0, "cannot read HTML entry: %v", unwrapPathErr(err))
	}
	if err := checkUTF8(display, bytes.TrimPrefix(data, utf8BOM)); err != nil {
		return nil, err
	}
	htmlDir := filepath.Dir(file)
	e := &htmlEntry{}
	var out bytes.Buffer
	insertAt := -1
	l := lexhtml.NewLexer(parse.NewInputBytes(data))
	offset := 0
	type tag struct {
		name  string
		start int
		attrs map[string]string
		pos   map[string]int
		raw   bytes.Buffer
	}
	var cur *tag
	skipUntilScriptEnd := false
	inlineScript := -1 // offset of an inline module script's text, while in one
	errAt := func(off int, format string, args ...any) error {
		l, c, src := lineCol(data, off)
		d := diagErr(display, l, c, format, args...)
		d.Diagnostics[0].Source = src
		if len(args) == 1 {
			if err, ok := args[0].(error); ok {
				d.Diagnostics[0].Code = codeOf(err)
			}
		}
		return d
	}
	for {
		tt, tok := l.Next()
		if tt == lexhtml.ErrorToken {
			break
		}
		start := offset
		offset += len(tok)
		switch tt {
		case lexhtml.StartTagToken:
			cur = &tag{name: strings.ToLower(string(l.Text())), start: start, attrs: map[string]string{}, pos: map[string]int{}}
			cur.raw.Write(tok)
			continue
		case lexhtml.AttributeToken:
			if cur != nil {
				k := strings.ToLower(string(l.AttrKey()))
				v := string(l.AttrVal())
				if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
					v = v[1 : len(v)-1]
				}
				cur.attrs[k] = html.UnescapeString(v)
				cur.pos[k] = start + bytes.IndexByte(tok, tok[bytes.IndexFunc(tok, func(r rune) bool { return r != ' ' && r != '\t' && r != '\n' && r != '\r' })])
				cur.raw.Write(tok)
				continue
			}
		case lexhtml.StartTagCloseToken, lexhtml.StartTagVoidToken:
			if cur != nil {
				cur.raw.Write(tok)
				t := cur
				cur = nil
				removed := false
				switch {
				case t.name == "script" && t.attrs["src"] != "" && isLocalURL(t.attrs["src"]):
					if t.attrs["type"] != "module" {
						return nil, errAt(t.pos["src"], "local script %q must be <script type=\"module\" src=…> so it can be bundled", t.attrs["src"])
					}
					spec, err := localImport(t.attrs["src"], htmlDir, widgetDir, projectDir, c)
					if err != nil {
						return nil, errAt(t.pos["src"], "%v", err)
					}
					e.imports = append(e.imports, spec)
					removed, skipUntilScriptEnd = true, true
				case t.name == "script" && t.attrs["type"] == "module" && !hasAttr(t.attrs, "src"):
					// Vite bundles inline module scripts; so does widgetd,
					// as a module in the HTML file's folder.
					e.imports = append(e.imports, inlineScriptImport(len(e.inlineScripts)))
					e.inlineScripts = append(e.inlineScripts, "")
					removed, skipUntilScriptEnd, inlineScript = true, true, offset
				case t.name == "link" && hasToken(t.attrs["rel"], "stylesheet") && isLocalURL(t.attrs["href"]):
					spec, err := localImport(t.attrs["href"], htmlDir, widgetDir, projectDir, c)
					if err != nil {
						return nil, errAt(t.pos["href"], "%v", err)
					}
					e.imports = append(e.imports, spec)
					removed = true
				case t.name == "link" && hasToken(t.attrs["rel"], "modulepreload") && isLocalURL(t.attrs["href"]):
					removed = true // bundled away
				}
				if removed {
					if insertAt < 0 {
						insertAt = out.Len()
					}
					continue
				}
				out.Write(t.raw.Bytes())
				continue
			}
		case lexhtml.EndTagToken:
			if skipUntilScriptEnd && strings.EqualFold(string(l.Text()), "script") {
				skipUntilScriptEnd, inlineScript = false, -1
				continue
			}
		case lexhtml.TextToken:
			if inlineScript >= 0 {
				cur := &e.inlineScripts[len(e.inlineScripts)-1]
				if *cur == "" {
					// Pad so that esbuild's line:col in the script are the
					// line:col in the HTML file.
					line, col, _ := lineCol(data, start)
					*cur = strings.Repeat("\n", line-1) + strings.Repeat(" ", col-1)
				}
				*cur += string(tok)
				continue
			}
			if skipUntilScriptEnd {
				if len(bytes.TrimSpace(tok)) > 0 {
					return nil, errAt(start, "a <script src> must be empty; move this code into the module it loads")
				}
				continue
			}
		}
		out.Write(tok)
	}
	if err := l.Err(); err != nil && err.Error() != "EOF" {
		return nil, errAt(offset, "cannot parse HTML: %v", err)
	}
	hasScript := false
	for _, imp := range e.imports {
		if !strings.HasSuffix(strings.ToLower(imp), ".css") && !strings.HasSuffix(strings.ToLower(imp), ".scss") {
			hasScript = true
		}
	}
	if !hasScript {
		return nil, errAt(0, "no <script type=\"module\"> found; add one that loads the widget's code (e.g. <script type=\"module\" src=\"./src/main.tsx\"></script>)")
	}
	doc := out.Bytes()
	if insertAt < 0 {
		insertAt = len(doc)
	}
	if !bytes.HasPrefix(bytes.ToLower(bytes.TrimSpace(doc)), []byte("<!doctype html")) {
		doc = append([]byte("<!doctype html>"), doc...)
		insertAt += len("<!doctype html>")
	}
	e.before = append([]byte(nil), doc[:insertAt]...)
	e.after = append([]byte(nil), doc[insertAt:]...)
	return e, nil
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
	if rel, err := filepath.Rel(projectDir, abs); (err != nil || !filepath.IsLocal(rel)) && !c.allowsFile(abs) {
		return "", fmt.Errorf("%q is outside the project (%s); move it inside, or add its folder to \"allowOutside\" in %s", ref, c.display.Show(projectDir), ProjectConfigFile)
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%q does not exist (looked for %s)", ref, c.display.Show(abs))
	}
	if err := c.check(ref, abs, ""); err != nil {
		return "", err
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
		return nil, diagErr(display, 0, 0, "cannot minify HTML: %v", err)
	}
	return out, nil
}

// utf8BOM is the UTF-8 byte order mark some editors start a file with.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

package bundler

import (
	"bytes"
	"html"
	"regexp"
)

// rootIDRE is the pattern an HTML id given as widget.json "root" must match.
var rootIDRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:.-]{0,127}$`)

// mountLookupRE finds the element ids a bundle looks up by a literal:
// getElementById("x"), querySelector("#x").
var mountLookupRE = regexp.MustCompile(`^getElementById\(\s*["'` + "`" + `]([A-Za-z][A-Za-z0-9_:.-]*)["'` + "`" + `]\s*\)|^querySelector\(\s*["'` + "`" + `]#([A-Za-z][A-Za-z0-9_-]*)["'` + "`" + `]\s*\)`)

// mountNameRE is what a mount element's id looks like: "root", "app", or
// "<something>-root" / "<something>_root" / "<something>Root" (OpenAI's
// Apps SDK examples mount into "<widget-name>-root").
var mountNameRE = regexp.MustCompile(`^(root|app)$|[-_]root$|Root$`)

// LookedUpIDs returns, without repeats, the element ids that js looks up
// with a literal getElementById("…") or querySelector("#…"):
// getElementById lookups first, each kind in source order.
func LookedUpIDs(js []byte) []string {
	var out []string
	seen := map[string]bool{}
	// Find the calls with a plain search, then match each one in a small
	// window: a regular expression over a whole bundle is slow.
	for _, call := range [][]byte{[]byte("getElementById("), []byte("querySelector(")} {
		for off := 0; ; {
			i := bytes.Index(js[off:], call)
			if i < 0 {
				break
			}
			start := off + i
			off = start + len(call)
			end := min(len(js), start+len(call)+160)
			m := mountLookupRE.FindSubmatch(js[start:end])
			if m == nil {
				continue
			}
			id := string(m[1])
			if id == "" {
				id = string(m[2])
			}
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// mountIDs decides the mount elements of the default shell: the widget.json
// "root" when set; else every mount-like id the bundle looks up by a literal
// ("root", "app", "*-root", ...), so both getElementById("root") and
// getElementById("pizzaz-list-root") find their element; else (the id is
// computed, or nothing is looked up) both "root" and "<name>-root".
func mountIDs(configured, name string, js []byte) []string {
	if configured != "" {
		return []string{configured}
	}
	var ids []string
	for _, id := range LookedUpIDs(js) {
		if IsMountID(id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		ids = []string{"root", name + "-root"}
	}
	return ids
}

// defaultShell is the document around a script entry: the mount element(s)
// for the widget to render into.
func defaultShell(title string, ids []string) *htmlEntry {
	body := `</head><body>`
	for _, id := range ids {
		body += `<div id="` + html.EscapeString(id) + `"></div>`
	}
	return &htmlEntry{
		before: []byte(`<!doctype html><html lang="en"><head><meta charset="utf-8">` +
			`<meta name="viewport" content="width=device-width, initial-scale=1">` +
			`<meta name="color-scheme" content="light dark"><title>` + html.EscapeString(title) + `</title>`),
		after: []byte(body + `</body></html>`),
	}
}

// IsMountID reports whether an element id looks like a widget's mount
// element ("root", "app", "<name>-root", ...), the ids the default shell
// provides when the code looks them up.
func IsMountID(id string) bool { return mountNameRE.MatchString(id) }

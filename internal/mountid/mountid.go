// Package mountid finds the element ids a widget's code mounts into, so the
// bundler's default shell can provide them and check can report the ones an
// HTML entry lacks.
package mountid

import (
	"bytes"
	"regexp"
)

// lookupRE finds the element ids a bundle looks up by a literal:
// getElementById("x"), querySelector("#x").
var lookupRE = regexp.MustCompile(`^getElementById\(\s*["'` + "`" + `]([A-Za-z][A-Za-z0-9_:.-]*)["'` + "`" + `]\s*\)|^querySelector\(\s*["'` + "`" + `]#([A-Za-z][A-Za-z0-9_-]*)["'` + "`" + `]\s*\)`)

// nameRE is what a mount element's id looks like: "root", "app", or
// "<something>-root" / "<something>_root" / "<something>Root" (OpenAI's
// Apps SDK examples mount into "<widget-name>-root").
var nameRE = regexp.MustCompile(`^(root|app)$|[-_]root$|Root$`)

// LookedUp returns, without repeats, the element ids that js looks up
// with a literal getElementById("…") or querySelector("#…"):
// getElementById lookups first, each kind in source order.
func LookedUp(js []byte) []string {
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
			m := lookupRE.FindSubmatch(js[start:end])
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

// IsMount reports whether an element id looks like a widget's mount
// element ("root", "app", "<name>-root", ...), the ids the default shell
// provides when the code looks them up.
func IsMount(id string) bool { return nameRE.MatchString(id) }

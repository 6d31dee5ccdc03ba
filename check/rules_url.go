package check

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/cspgen"
)

// The URL rules: every URL the widget loads must be allowed by the CSP a host
// enforces, and every declared origin should be used.

// ruleFor returns the rule and list for a directive.
func ruleFor(d cspgen.Directive) string {
	switch d {
	case cspgen.ConnectSrc:
		return RuleCSPUndeclaredConnect
	case cspgen.FrameSrc:
		return RuleCSPUndeclaredFrame
	case cspgen.BaseURI:
		return RuleCSPUndeclaredBaseURI
	}
	return RuleCSPUndeclaredResource
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// urlRules reports each URL the widget's files load that pol blocks (and
// data: URLs outside img-src and media-src), once per rule, origin and file,
// with a count of the further hits.
func (c *widgetCheck) urlRules(pol *cspgen.Policy, files []scanned) {
	cfg := c.config()
	type key struct {
		rule, origin, file string
	}
	first := map[key]int{} // index into c.out
	more := map[key]int{}
	var order []key
	for _, f := range files {
		for _, r := range f.res.Refs {
			shown := r.URL
			if r.Partial {
				shown += "…"
			}
			shown = strconv.Quote(shorten(shown, 120))
			if hasPrefixFold(r.URL, "data:") {
				if r.Directive == cspgen.ImgSrc || r.Directive == cspgen.MediaSrc {
					continue
				}
				k := key{RuleCSPBlockedDataURL, "data:", f.path}
				if _, ok := first[k]; ok {
					more[k]++
					continue
				}
				first[k] = len(c.out)
				order = append(order, k)
				file, off := c.sourceOf(f.path, r)
				c.add(RuleCSPBlockedDataURL, audit.Error, file, off,
					"serve the file from your public URL (widgetd build --public-url) instead of inlining it as a data: URL",
					"%s loads a data: URL through %s, which the spec CSP does not allow data: in; the host blocks it", r.Via, r.Directive)
				continue
			}
			if pol.Allows(r.Directive, r.URL) {
				continue
			}
			origin, err := cspgen.OriginOf(r.URL)
			if err != nil {
				continue
			}
			rule := ruleFor(r.Directive)
			k := key{rule, origin, f.path}
			if _, ok := first[k]; ok {
				more[k]++
				continue
			}
			first[k] = len(c.out)
			order = append(order, k)
			list := r.Directive.List()
			file, off := c.sourceOf(f.path, r)
			c.add(rule, audit.Error, file, off, fmt.Sprintf("add %q to csp.%s in %s", origin, list, cfg),
				"%s %s reaches %s, which %s does not declare; the host's %s blocks it", r.Via, shown, origin, list, r.Directive)
		}
	}
	for _, k := range order {
		if n := more[k]; n > 0 {
			i := first[k]
			c.out[i].Message += fmt.Sprintf(" (and %d more in this file)", n)
		}
	}
}

// sourceOf is where a finding about r, found in the built file path, is
// reported: "file:line:col" in the sources when they are known and hold it
// (the position is kept for build warnings), else the built file and r's
// byte offset in it.
func (c *widgetCheck) sourceOf(path string, r urlRef) (string, int) {
	pos, ok := c.locate(r)
	if !ok {
		return path, r.Offset
	}
	if c.srcPos == nil {
		c.srcPos = map[int]sourcePos{}
	}
	c.srcPos[len(c.out)] = pos
	return pos.String(), -1
}

// unusedRules warns about declared origins no file of the widget mentions.
// A mention anywhere (even in a string the scanner cannot tie to a load)
// counts as use, so the warning only fires when nothing could reach it.
func (c *widgetCheck) unusedRules(pol *cspgen.Policy, files []scanned) {
	var text [][]byte
	for _, f := range files {
		text = append(text, bytes.ToLower(f.data))
	}
	d := pol.Domains()
	for _, l := range []struct {
		field string
		list  []string
	}{{cspgen.FieldConnect, d.Connect}, {cspgen.FieldResource, d.Resource}, {cspgen.FieldFrame, d.Frame}, {cspgen.FieldBaseURI, d.BaseURI}, {cspgen.FieldRedirect, d.Redirect}} {
		for _, e := range l.list {
			host := e[strings.Index(e, "://")+3:]
			host = strings.TrimPrefix(host, "*")
			if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
				host = host[:i]
			}
			used := false
			for _, t := range text {
				if bytes.Contains(t, []byte(host)) {
					used = true
					break
				}
			}
			if !used {
				c.add(RuleCSPUnusedDomain, audit.Warning, "", -1, fmt.Sprintf("remove %q from csp.%s in %s, or ignore this if the URL is built at run time", e, l.field, c.config()),
					"%s declares %s, but nothing in the widget's HTML, JS or CSS mentions it; unused origins widen the policy and draw review questions", l.field, e)
			}
		}
	}
}

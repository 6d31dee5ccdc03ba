package check

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/internal/mountid"
)

// Rule IDs of the mount and worker rules.
const (
	// RuleMountMissing: the code mounts into an element id no shell provides.
	RuleMountMissing = "html-mount-missing"
	// RuleCSPBlockedWorker: a Worker started from a blob: URL.
	RuleCSPBlockedWorker = "csp-blocked-worker"
	// RuleWorkerNotBundled: a Worker started through a global object
	// (new self.Worker(…)) from a URL the build does not follow.
	RuleWorkerNotBundled = "worker-not-bundled"
)

var (
	htmlIDRE      = regexp.MustCompile(`(?i)\sid\s*=\s*["']?([^"'\s>]+)`)
	newWorkerRE   = regexp.MustCompile(`\bnew\s+(?:(?:self|globalThis|window)\s*\.\s*)?(?:Shared)?Worker\(`)
	globalWorker  = regexp.MustCompile(`\bnew\s+(?:self|globalThis|window)\s*\.\s*(?:Shared)?Worker\(\s*`)
	objectURLRE   = regexp.MustCompile(`createObjectURL\(`)
	lookupCallsRE = regexp.MustCompile(`getElementById\(|querySelector(All)?\(`)
)

// codeText is one piece of the widget's JavaScript: a file, or an inline
// script of the HTML document, at its offset in that file.
type codeText struct {
	file string
	off  int
	text []byte
}

// code lists the widget's JavaScript: module files and inline scripts.
func code(files []scanned) []codeText {
	var out []codeText
	for _, f := range files {
		if f.doc != nil || f.res.Scripts != nil {
			for _, s := range f.res.Scripts {
				out = append(out, codeText{f.path, s.Offset, s.Text})
			}
			continue
		}
		if bytes.HasSuffix([]byte(f.path), []byte(".js")) || bytes.HasSuffix([]byte(f.path), []byte(".mjs")) {
			out = append(out, codeText{f.path, 0, f.data})
		}
	}
	return out
}

// mountRules reports mount-like element ids the code looks up by a literal
// (getElementById("x"), querySelector("#x")) that neither the HTML document
// nor the code itself provides: React's createRoot then throws (minified
// error #299) or the widget renders nothing.
func (c *widgetCheck) mountRules(files []scanned) {
	page := files[0]
	have := map[string]bool{}
	for _, m := range htmlIDRE.FindAllSubmatch(page.data, -1) {
		have[string(m[1])] = true
	}
	for _, ct := range code(files) {
		for _, id := range mountid.LookedUp(ct.text) {
			if have[id] || !mountid.IsMount(id) {
				continue
			}
			lit := []byte(strconv.Quote(id))
			lookups := len(lookupCallsRE.FindAll(ct.text, -1))
			// A literal used more often than it is looked up is likely
			// the code creating the element itself (el.id = "x").
			if n := bytes.Count(ct.text, lit) + bytes.Count(ct.text, []byte("'"+id+"'")); n > 1 && n > lookups {
				continue
			}
			have[id] = true // report each id once
			off := ct.off + bytes.Index(ct.text, lit)
			if bytes.Index(ct.text, lit) < 0 {
				off = ct.off
			}
			c.add(RuleMountMissing, audit.Error, ct.file, off,
				fmt.Sprintf("add <div id=%q></div> to the widget's HTML entry, or, for a script entry, set \"root\": %q in %s", id, id, c.config()),
				"the code mounts into #%s, which the widget's document does not have; React's createRoot throws (error #299) or the widget renders nothing", id)
		}
	}
}

// workerRules reports a Worker started from a blob: URL (a library that
// builds its worker from a string): the spec CSP has no worker-src, so
// script-src decides, and it allows no blob:.
func (c *widgetCheck) workerRules(files []scanned) {
	for _, ct := range code(files) {
		w := newWorkerRE.FindIndex(ct.text)
		if w == nil {
			continue
		}
		if !objectURLRE.Match(ct.text) {
			c.globalWorkerRule(ct)
			continue
		}
		c.add(RuleCSPBlockedWorker, audit.Error, ct.file, ct.off+w[0],
			"use the library's no-worker mode, or start the worker from a file: new Worker(new URL(\"./worker.ts\", import.meta.url), {type: \"module\"}) in a widget built with --public-url",
			"the code starts a Worker from a blob: URL (URL.createObjectURL); the spec CSP has no worker-src, so script-src decides, and it allows no blob:; the host blocks the worker")
	}
}

// globalWorkerRule reports a Worker started through a global object (new
// self.Worker(…), globalThis, window) from anything but new URL(…): the
// build bundles only new Worker(new URL("./w.ts", import.meta.url)), so
// this worker's script is not in the widget, and the host blocks a worker
// that is not a script file from an allowed origin.
func (c *widgetCheck) globalWorkerRule(ct codeText) {
	for _, loc := range globalWorker.FindAllIndex(ct.text, -1) {
		if bytes.HasPrefix(ct.text[loc[1]:], []byte("new URL(")) {
			continue
		}
		c.add(RuleWorkerNotBundled, audit.Warning, ct.file, ct.off+loc[0],
			"start the worker from a file the build bundles: new Worker(new URL(\"./worker.ts\", import.meta.url), {type: \"module\"}) in a widget built with --public-url, or use the library's no-worker mode",
			"the code starts a Worker through a global object (new self.Worker(…), new globalThis.Worker(…) or new window.Worker(…)) from a URL the build does not follow, so the worker's script is not bundled; the spec CSP lets a worker start only from a script file on an allowed origin, so the host blocks it")
		return
	}
}

package check

import (
	"strings"

	"github.com/tdewolff/parse/v2"

	"github.com/widgetd/widgetd/cspgen"
)

// urlRef is one URL a widget's code or markup reaches, as the scanner found it.
type urlRef struct {
	// URL is the URL, or its known prefix when Partial.
	URL string
	// Partial is true when only a prefix of the URL is known (a template or
	// concatenation); the prefix always contains the whole origin.
	Partial bool
	// Directive is the CSP directive the load falls under.
	Directive cspgen.Directive
	// Offset is the byte offset in the scanned text of the expression or
	// attribute that makes the load.
	Offset int
	// Via says how the URL is reached, such as `fetch()` or `<img src>`.
	Via string
}

// evalUse is one place where code is compiled from a string at run time.
type evalUse struct {
	// Offset is the byte offset of the call.
	Offset int
	// Via is the construct: "eval()", "new Function()", "setTimeout(string)".
	Via string
}

// scanResult is what scanning one file found.
type scanResult struct {
	// Refs are the URLs the file reaches, in file order.
	Refs []urlRef
	// Evals are the run-time code compilations, in file order.
	Evals []evalUse
	// Hazards are problems with inline scripts (HTML only).
	Hazards []hazard
	// Scripts are the inline script texts of an HTML document with their
	// offsets, for rules that look inside them.
	Scripts []inlineBody
	// Stopped is the offset at which a tokenizer failed on malformed input;
	// meaningful only when Complete reports false. Nothing after it was seen.
	Stopped int
	// stopped is true when Stopped is meaningful.
	stopped bool
}

// Complete reports whether the whole input was scanned.
func (r *scanResult) Complete() bool { return !r.stopped }

// stop records that scanning ended early at off.
func (r *scanResult) stop(off int) {
	if !r.stopped || off < r.Stopped {
		r.Stopped, r.stopped = off, true
	}
}

// hazard is an inline-script problem.
type hazard struct {
	Offset  int
	Message string
}

// inlineBody is one inline <script> or <style> body inside an HTML document.
type inlineBody struct {
	Offset int
	Text   []byte
	Module bool
}

// lexerInput returns src as input for the tdewolff lexers and parser: a
// copy with room for the NUL they write past the end (and the HTML lexer
// lowercases names in place), so src is never changed.
func lexerInput(src []byte) *parse.Input {
	buf := make([]byte, len(src), len(src)+1)
	copy(buf, src)
	return parse.NewInputBytes(buf)
}

// recoverLexer, deferred around a run of a tdewolff lexer or parser, turns
// its panic into a call of stopped. They read past their input on some
// malformed text (fuzzing finds), and a bundle or page that trips one must
// end that file's scan, not crash widgetd check; stopped records what the
// caller keeps. Any other panic is recovered the same way.
func recoverLexer(stopped func()) {
	if recover() != nil {
		stopped()
	}
}

// maxTokens bounds the work done on one file so a hostile input cannot make
// the scanner run away; bundles are far below it.
const maxTokens = 20_000_000

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// looksAbsolute reports whether s starts with a network scheme and "//".
func looksAbsolute(s string) bool {
	for _, p := range []string{"https://", "http://", "wss://", "ws://"} {
		if hasPrefixFold(s, p) {
			return true
		}
	}
	return false
}

// makeRef turns a found URL into a urlRef, or reports false when it is not an
// absolute network URL the CSP governs, or when (for a prefix) the origin is
// not fully known. data: URLs are kept for the directives that can load them.
func makeRef(u string, partial bool, dir cspgen.Directive, off int, via string) (urlRef, bool) {
	u = strings.TrimSpace(u)
	if u == "" || strings.ContainsAny(u, " \t\r\n\x00") && !hasPrefixFold(u, "data:") {
		return urlRef{}, false
	}
	if hasPrefixFold(u, "data:") {
		return urlRef{URL: u, Partial: partial, Directive: dir, Offset: off, Via: via}, true
	}
	if strings.HasPrefix(u, "//") {
		u = "https:" + u // protocol-relative: the sandbox is https
	}
	if !looksAbsolute(u) {
		return urlRef{}, false // relative: resolves against the host's sandbox origin
	}
	rest := u[strings.Index(u, "://")+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 && partial {
		return urlRef{}, false // the host may go on: "https://" + "api" + ...
	}
	if end == 0 {
		return urlRef{}, false
	}
	if _, err := cspgen.OriginOf(u); err != nil {
		return urlRef{}, false
	}
	return urlRef{URL: u, Partial: partial, Directive: dir, Offset: off, Via: via}, true
}

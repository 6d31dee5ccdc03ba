package bundler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/widgetd/widgetd/diag"
)

// The build reports at once what every host will block under the spec CSP,
// naming the source file and the fix, instead of leaving it to `widgetd
// check` or the browser console.

var (
	// fontExtRE matches font source files.
	fontExtRE = regexp.MustCompile(`(?i)\.(woff2?|ttf|otf|eot)$`)
	// blobWorkerRE finds a Worker started from URL.createObjectURL(…).
	blobWorkerRE = regexp.MustCompile(`createObjectURL\(`)
	// workerRE finds a Worker started by name or through a global object
	// (new self.Worker(…), new globalThis.Worker(…), new window.Worker(…),
	// as mapbox-gl does).
	workerRE = regexp.MustCompile(`\bnew\s+(?:(?:self|globalThis|window)\s*\.\s*)?(?:Shared)?Worker\(`)
	// globalWorkerRE finds a Worker started through a global object, and
	// what follows its "(".
	globalWorkerRE = regexp.MustCompile(`\bnew\s+(?:self|globalThis|window)\s*\.\s*(?:Shared)?Worker\(\s*`)
	// evalRE finds code compiled from a string at run time.
	evalRE = regexp.MustCompile(`(^|[^.\w$])eval\(|\bnew\s+Function\(`)
)

// hostBlockWarnings returns the warnings for one widget's bundle.
func (b *Builder) hostBlockWarnings(w *widget, bundle *bundleResult, js, css []byte) []diag.Diagnostic {
	var out []diag.Diagnostic
	name := w.Config.Name
	inputs := bundle.inputsOf(bundle.js[name])
	if c := bundle.css[name]; c != "" {
		inputs = append(inputs, bundle.inputsOf(c)...)
	}
	if w.Inline && (hasDataFont(css) || hasDataFont(js)) {
		fonts := filterInputs(bundle.importsOf(inputs), func(p string) bool { return fontExtRE.MatchString(p) })
		out = append(out, diag.Diagnostic{File: b.shownInput(fonts, w), Warning: true, Message: fmt.Sprintf(
			"widget %q inlines %s as a data: URL, which the spec CSP's font-src blocks in every host; build with a public URL (widgetd build --public-url https://…) so fonts load as files, or use the host's fonts",
			name, plural(len(fonts), "a font", "fonts"))})
	}
	if bytes.Contains(js, []byte("createObjectURL(")) && bytes.Contains(js, []byte("Worker(")) && workerRE.Match(js) {
		srcs := b.inputsMatching(inputs, func(src []byte) bool { return workerRE.Match(src) && blobWorkerRE.Match(src) })
		out = append(out, diag.Diagnostic{File: b.shownInput(srcs, w), Warning: true, Message: fmt.Sprintf(
			"widget %q starts a Worker from a blob: URL, which the spec CSP blocks (no worker-src, and script-src allows no blob:); use the library's no-worker mode, or start the worker from a file (new Worker(new URL(\"./worker.ts\", import.meta.url), {type: \"module\"}) with --public-url)", name)})
	}
	if !bytes.Contains(js, []byte("createObjectURL(")) && unbundledGlobalWorker(js) {
		srcs := b.inputsMatching(inputs, unbundledGlobalWorker)
		out = append(out, diag.Diagnostic{File: b.shownInput(srcs, w), Warning: true, Message: fmt.Sprintf(
			"widget %q starts a Worker through a global (new self.Worker(…), new globalThis.Worker(…) or new window.Worker(…)) from a URL the build cannot follow, so the worker's script is not bundled, and the spec CSP lets a worker start only from a script file on an allowed origin: the host blocks it; write new Worker(new URL(\"./worker.ts\", import.meta.url), {type: \"module\"}) (bundled, with --public-url) or use the library's no-worker mode", name)})
	}
	if (bytes.Contains(js, []byte("eval(")) || bytes.Contains(js, []byte("Function("))) && evalRE.Match(js) {
		srcs := b.inputsMatching(inputs, evalRE.Match)
		out = append(out, diag.Diagnostic{File: b.shownInput(srcs, w), Warning: true, Message: fmt.Sprintf(
			"widget %q compiles code from a string at run time (eval or new Function), which the spec CSP blocks (no 'unsafe-eval'); avoid the construct or the package that uses it (zod: z.config({ jitless: true }))", name)})
	}
	if b.publicURL != "" && bundle.hasWorkerFile(js) {
		out = append(out, diag.Diagnostic{File: b.displayPath(w.Entry), Warning: true, Message: fmt.Sprintf(
			"widget %q starts a Worker from %s: browsers start a Worker only from the page's own origin, so it runs where the host renders the widget from that origin, and fails (SecurityError) on a host's sandbox origin; keep a main-thread fallback", name, b.publicURL)})
	}
	return out
}

// unbundledGlobalWorker reports whether src starts a Worker through a
// global object from anything but new URL(…): a worker the build does not
// bundle (new self.Worker(new URL("./w.ts", import.meta.url)) is bundled
// like new Worker(…), see importMetaURLRE).
func unbundledGlobalWorker(src []byte) bool {
	if !bytes.Contains(src, []byte("Worker(")) {
		return false
	}
	for _, loc := range globalWorkerRE.FindAllIndex(src, -1) {
		if !bytes.HasPrefix(src[loc[1]:], []byte("new URL(")) {
			return true
		}
	}
	return false
}

// dataFontPrefixes are the data: URL starts of fonts, as esbuild writes them.
var dataFontPrefixes = [][]byte{[]byte("data:font/"), []byte("data:application/font"), []byte("data:application/x-font"), []byte("data:application/vnd.ms-fontobject")}

// hasDataFont reports whether b holds a font inlined as a data: URL.
func hasDataFont(b []byte) bool {
	for _, p := range dataFontPrefixes {
		if bytes.Contains(b, p) {
			return true
		}
	}
	return false
}

// inputsOf lists the file inputs that make up one output (dist-relative path).
func (r *bundleResult) inputsOf(out string) []string {
	o, ok := r.meta.Outputs[outBase+"/"+out]
	if !ok {
		return nil
	}
	var in []string
	for p := range o.Inputs {
		in = append(in, p)
	}
	sort.Strings(in)
	return in
}

// importsOf lists what the given inputs import (url() tokens included), from
// the metafile: files inlined as data: URLs show up only there.
func (r *bundleResult) importsOf(inputs []string) []string {
	var m struct {
		Inputs map[string]struct {
			Imports []struct {
				Path string `json:"path"`
			} `json:"imports"`
		} `json:"inputs"`
	}
	if json.Unmarshal([]byte(r.rawMeta), &m) != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, in := range inputs {
		for _, imp := range m.Inputs[in].Imports {
			if !seen[imp.Path] {
				seen[imp.Path] = true
				out = append(out, imp.Path)
			}
		}
	}
	sort.Strings(out)
	return out
}

// hasWorkerFile reports whether js loads a worker bundled by ?worker or new
// Worker(new URL(…)).
func (r *bundleResult) hasWorkerFile(js []byte) bool {
	for p := range r.files {
		if isWorkerFile(p) && bytes.Contains(js, []byte(path0(p))) {
			return true
		}
	}
	return false
}

// isWorkerFile reports whether a dist/ path is a worker bundled on its own
// (named after its source with ".worker", see workerOutputName).
func isWorkerFile(p string) bool {
	return strings.HasSuffix(p, ".js") && strings.Contains(path0(p), ".worker-")
}

func path0(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

func filterInputs(in []string, keep func(string) bool) []string {
	var out []string
	for _, p := range in {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// inputsMatching reads the plain-file inputs and keeps those whose source
// matches.
func (b *Builder) inputsMatching(in []string, match func([]byte) bool) []string {
	var out []string
	for _, p := range in {
		if strings.Contains(p, ":") || strings.HasPrefix(p, "<") {
			continue
		}
		data, err := b.contain.ReadFile("", filepath.Join(b.root, filepath.FromSlash(p)), "")
		if err == nil && match(data) {
			out = append(out, p)
		}
	}
	return out
}

// shownInput names the source files in a warning: the first one (and how
// many more), or the widget's entry when none is known.
func (b *Builder) shownInput(srcs []string, w *widget) string {
	if len(srcs) == 0 {
		return b.displayPath(w.Entry)
	}
	s := b.displayPath(filepath.Join(b.root, filepath.FromSlash(srcs[0])))
	if len(srcs) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(srcs)-1)
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	if n == 0 {
		return many
	}
	return fmt.Sprintf("%d %s", n, many)
}

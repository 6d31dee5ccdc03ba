package check

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/html"
	"github.com/tdewolff/parse/v2/js"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/cspgen"
)

// Rule IDs of the build-level rules. They are stable: CI configurations and
// docs/check.md refer to them.
const (
	RuleCSPUndeclaredConnect  = "csp-undeclared-connect"
	RuleCSPUndeclaredResource = "csp-undeclared-resource"
	RuleCSPUndeclaredFrame    = "csp-undeclared-frame"
	RuleCSPUndeclaredBaseURI  = "csp-undeclared-base-uri"
	RuleCSPBlockedDataURL     = "csp-blocked-data-url"
	RuleCSPUnusedDomain       = "csp-unused-domain"
	RuleCSPFrameDomains       = "csp-frame-domains"
	RuleMetaCSPMissing        = "meta-csp-missing"
	RuleMetaCSPMismatch       = "meta-csp-mismatch"
	RuleMetaCSPInvalid        = "meta-csp-invalid"
	RuleMetaDomainMismatch    = "meta-domain-mismatch"
	RuleDomainMissing         = "domain-missing"
	RuleDomainInvalid         = "domain-invalid"
	RuleWidgetDescription     = "widget-description-missing"
	RuleJSEval                = "js-eval"
	RuleSizeInline            = "size-inline-budget"
	RuleSizeTransfer          = "size-transfer-budget"
	RuleInlineScriptHazard    = "html-inline-script-hazard"
	RuleHTMLInvalid           = "html-invalid"
	RuleFileMissing           = "build-file-missing"
)

// widgetCheck runs the rules on one widget.
type widgetCheck struct {
	in    *Input
	opts  Options
	w     *assets.Widget
	files map[string]assets.File
	out   []audit.Finding
}

func (c *widgetCheck) add(rule string, sev audit.Severity, file string, off int, fix, format string, args ...any) {
	if file == "" {
		off = -1
	}
	c.out = append(c.out, audit.Finding{Subject: c.w.Name, Rule: rule, Severity: sev, File: file, Offset: off,
		Message: fmt.Sprintf(format, args...), Fix: fix})
}

// config is the widget.json path to name in fixes.
func (c *widgetCheck) config() string {
	if d, ok := c.in.ConfigDir[c.w.Name]; ok && d != "" {
		return path.Join(d, "widget.json")
	}
	return "widgets/" + c.w.Name + "/widget.json"
}

// scanned is one scanned file of the widget.
type scanned struct {
	path string
	data []byte
	res  ScanResult
	doc  *htmlDoc
}

func (c *widgetCheck) run() {
	pol := c.metaRules()

	var files []scanned
	doc, ok := c.in.Files[c.w.HTML]
	if !ok {
		c.add(RuleFileMissing, audit.Error, c.w.HTML, -1, "rebuild with widgetd build; dist/ must hold every file the manifest names", "the widget's HTML document is missing from the build")
		return
	}
	res, hd := scanHTML(doc)
	files = append(files, scanned{path: c.w.HTML, data: doc, res: res, doc: hd})
	for _, p := range c.w.Files {
		data, ok := c.in.Files[p]
		if !ok {
			c.add(RuleFileMissing, audit.Error, p, -1, "rebuild with widgetd build; dist/ must hold every file the manifest names", "a file the widget loads is missing from the build")
			continue
		}
		switch strings.ToLower(path.Ext(p)) {
		case ".js", ".mjs":
			files = append(files, scanned{path: p, data: data, res: ScanJS(data)})
		case ".css":
			files = append(files, scanned{path: p, data: data, res: ScanCSS(data)})
		default:
			files = append(files, scanned{path: p, data: data})
		}
	}

	c.htmlRules(files[0])
	if pol != nil {
		c.urlRules(pol, files)
		c.unusedRules(pol, files)
	}
	c.evalRules(files)
	c.mountRules(files)
	c.workerRules(files)
	c.sizeRules(files)
}

// --- metadata -------------------------------------------------------------

// metaLoc is one _meta object of the widget: a profile's list entry or read
// content item.
type metaLoc struct {
	name string
	m    map[string]any
}

func (c *widgetCheck) metaLocs() []metaLoc {
	var out []metaLoc
	for _, p := range c.w.Profiles {
		out = append(out, metaLoc{p.Profile + " resources/list entry", p.ListMeta}, metaLoc{p.Profile + " resources/read content", p.ReadMeta})
	}
	return out
}

// stringList reads a JSON string array; ok is false when v is present but
// not one.
func stringList(v any) ([]string, bool) {
	if v == nil {
		return nil, true
	}
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// cspOf reads the domains of a ui.csp (camel) or openai/widgetCSP (snake)
// object.
func cspOf(obj map[string]any, snake bool) (cspgen.Domains, error) {
	keys := [5]string{"connectDomains", "resourceDomains", "frameDomains", "baseUriDomains", ""}
	if snake {
		keys = [5]string{"connect_domains", "resource_domains", "frame_domains", "", "redirect_domains"}
	}
	var lists [5][]string
	for i, k := range keys {
		if k == "" {
			continue
		}
		l, ok := stringList(obj[k])
		if !ok {
			return cspgen.Domains{}, fmt.Errorf("%s is not an array of strings", k)
		}
		lists[i] = l
	}
	return cspgen.Domains{Connect: lists[0], Resource: lists[1], Frame: lists[2], BaseURI: lists[3], Redirect: lists[4]}, nil
}

// metaRules checks the resource metadata of every profile and location and
// returns the policy a host enforces (from the read content item's ui.csp,
// which hosts prefer), or nil when there is none to check URLs against.
func (c *widgetCheck) metaRules() *cspgen.Policy {
	cfg := c.config()
	var ref *cspgen.Policy
	var refName string
	type seen struct{ loc, val string }
	var uiDomains, oaDomains []seen
	var missingUI, missingOA []string
	descMissing := false
	for _, loc := range c.metaLocs() {
		ui, _ := loc.m["ui"].(map[string]any)
		for _, shape := range []struct {
			key   string
			obj   any
			snake bool
		}{{"_meta.ui.csp", ui["csp"], false}, {`_meta["openai/widgetCSP"]`, loc.m["openai/widgetCSP"], true}} {
			obj, ok := shape.obj.(map[string]any)
			if !ok {
				c.add(RuleMetaCSPMissing, audit.Error, "", -1, "rebuild with widgetd build, which writes both shapes on both the list entry and the read content; hosts differ on which they read",
					"%s has no %s; a host reading it applies the default CSP (ChatGPT: \"Widget CSP is not set for this template\")", loc.name, shape.key)
				continue
			}
			d, err := cspOf(obj, shape.snake)
			var pol *cspgen.Policy
			if err == nil {
				pol, err = cspgen.New(d)
			}
			if err != nil {
				c.add(RuleMetaCSPInvalid, audit.Error, "", -1, "fix the entry in "+cfg+" and rebuild", "%s %s: %v", loc.name, shape.key, err)
				continue
			}
			if ref == nil {
				ref, refName = pol, loc.name+" "+shape.key
				continue
			}
			if diff := policyDiff(ref, pol, shape.snake); diff != "" {
				c.add(RuleMetaCSPMismatch, audit.Error, "", -1, "rebuild with widgetd build so every copy comes from the one declaration in "+cfg,
					"%s %s differs from %s: %s; hosts reading different copies enforce different policies", loc.name, shape.key, refName, diff)
			}
		}
		if d, ok := ui["domain"]; ok {
			s, _ := d.(string)
			uiDomains = append(uiDomains, seen{loc.name, s})
		} else {
			missingUI = append(missingUI, loc.name)
		}
		if d, ok := loc.m["openai/widgetDomain"]; ok {
			s, _ := d.(string)
			oaDomains = append(oaDomains, seen{loc.name, s})
		} else {
			missingOA = append(missingOA, loc.name)
		}
		if s, _ := loc.m["openai/widgetDescription"].(string); strings.TrimSpace(s) == "" && strings.Contains(loc.name, "read") {
			descMissing = true
		}
	}
	if ref != nil && c.w.CSP != "" && c.w.CSP != ref.Header() {
		c.add(RuleMetaCSPMismatch, audit.Error, "", -1, "rebuild with widgetd build",
			"the manifest's csp header %q is not the spec construction of %s (%q)", c.w.CSP, refName, ref.Header())
	}

	// Domain.
	switch {
	case len(uiDomains) == 0 && len(oaDomains) == 0:
		c.add(RuleDomainMissing, audit.Warning, "", -1, `set "domain": "https://<your app origin>" in `+cfg+"; it must be an HTTPS origin you own, unique per app",
			"Widget domain is not set for this template; ChatGPT requires a unique domain for app submission")
	default:
		if len(oaDomains) > 0 && len(missingOA) > 0 {
			c.add(RuleMetaDomainMismatch, audit.Error, "", -1, "rebuild with widgetd build, which writes the domain on every list entry and read content",
				`_meta["openai/widgetDomain"] is set on %s but missing on %s`, oaDomains[0].loc, strings.Join(missingOA, ", "))
		}
		if len(uiDomains) > 0 && len(missingUI) > 0 {
			c.add(RuleMetaDomainMismatch, audit.Error, "", -1, "rebuild with widgetd build, which writes the domain on every list entry and read content",
				"_meta.ui.domain is set on %s but missing on %s", uiDomains[0].loc, strings.Join(missingUI, ", "))
		}
		if len(oaDomains) == 0 {
			c.add(RuleMetaDomainMismatch, audit.Error, "", -1, `set "domain" in `+cfg+` and rebuild; widgetd writes openai/widgetDomain from it`,
				`_meta.ui.domain is set but _meta["openai/widgetDomain"] is not; ChatGPT reads the latter`)
		}
		for _, list := range [][]seen{uiDomains, oaDomains} {
			for _, s := range list[min(1, len(list)):] {
				if s.val != list[0].val {
					c.add(RuleMetaDomainMismatch, audit.Error, "", -1, "rebuild with widgetd build",
						"the domain on %s (%q) differs from the one on %s (%q)", s.loc, s.val, list[0].loc, list[0].val)
				}
			}
		}
		if len(oaDomains) > 0 {
			if msg := openAIDomainProblem(oaDomains[0].val); msg != "" {
				c.add(RuleDomainInvalid, audit.Error, "", -1, `set "domain" in `+cfg+" to an HTTPS origin you own, such as https://widgets.example.com",
					`_meta["openai/widgetDomain"] %q: %s`, oaDomains[0].val, msg)
			}
		}
		if len(uiDomains) > 0 && (len(oaDomains) == 0 || uiDomains[0].val != oaDomains[0].val) {
			if msg := uiDomainProblem(uiDomains[0].val); msg != "" {
				c.add(RuleDomainInvalid, audit.Error, "", -1, "use the HTTPS origin for ChatGPT and let the registry send Claude its hash domain per request (assets.WithConnectorURL)",
					"_meta.ui.domain %q: %s", uiDomains[0].val, msg)
			}
		}
	}
	if descMissing {
		c.add(RuleWidgetDescription, audit.Warning, "", -1, `set "widgetDescription" in `+cfg+" to one sentence telling the model what the widget shows",
			`_meta["openai/widgetDescription"] is not set; ChatGPT gives the model no summary of what the widget shows`)
	}
	if ref != nil {
		if fr := ref.Domains().Frame; len(fr) > 0 {
			c.add(RuleCSPFrameDomains, audit.Warning, "", -1, "drop frameDomains unless the widget must embed these pages; remove the entries from csp.frameDomains in "+cfg,
				"frameDomains (%s) lets the widget render subframes, which triggers stricter review of the app", strings.Join(fr, ", "))
		}
	}
	return ref
}

// policyDiff describes how p differs from ref in the lists both shapes carry.
func policyDiff(ref, p *cspgen.Policy, snake bool) string {
	a, b := ref.Domains(), p.Domains()
	var diffs []string
	cmp := func(name string, x, y []string) {
		if !slices.Equal(x, y) {
			diffs = append(diffs, fmt.Sprintf("%s [%s] vs [%s]", name, strings.Join(y, " "), strings.Join(x, " ")))
		}
	}
	cmp("connect", a.Connect, b.Connect)
	cmp("resource", a.Resource, b.Resource)
	cmp("frame", a.Frame, b.Frame)
	if !snake {
		cmp("baseUri", a.BaseURI, b.BaseURI)
	}
	return strings.Join(diffs, "; ")
}

var claudeDomainRE = regexp.MustCompile(`^[0-9a-f]{32}\.claudemcpcontent\.com$`)

// openAIDomainProblem checks openai/widgetDomain: an HTTPS origin the app
// owns (chatgpt-apps.md §2.2). It returns "" when well-formed.
func openAIDomainProblem(d string) string {
	if d == "" {
		return "empty"
	}
	u, err := url.Parse(d)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return "not an origin; ChatGPT needs an HTTPS origin such as https://widgets.example.com"
	}
	if u.Scheme != "https" {
		return "must use https"
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(d, "?") || strings.HasSuffix(d, "#") {
		return "must be an origin only: no credentials, path, query or fragment"
	}
	h := strings.ToLower(u.Hostname())
	if _, err := cspgen.New(cspgen.Domains{Resource: []string{"https://" + u.Host}}); err != nil || strings.Contains(h, "*") {
		return "host is not a valid DNS name"
	}
	switch {
	case h == "localhost" || strings.HasSuffix(h, ".localhost") || net4(h) || strings.HasPrefix(h, "["):
		return "a local or IP address cannot be reviewed or reached by ChatGPT; use a public DNS name you own"
	case h == "oaiusercontent.com" || strings.HasSuffix(h, ".oaiusercontent.com"):
		return "this is ChatGPT's sandbox, which it derives from your domain; give your own origin"
	case strings.HasSuffix(h, ".claudemcpcontent.com"):
		return "this is a Claude sandbox host; ChatGPT needs your own HTTPS origin"
	case !strings.Contains(h, "."):
		return "not a public DNS name"
	}
	return ""
}

// uiDomainProblem checks a ui.domain that differs from openai/widgetDomain:
// host-dependent (mcp-apps.md §1.3); either an HTTPS origin (ChatGPT) or
// Claude's sha256-derived host, which Claude requires exactly.
func uiDomainProblem(d string) string {
	h := strings.ToLower(d)
	if strings.HasSuffix(h, "claudemcpcontent.com") {
		if !claudeDomainRE.MatchString(h) {
			return "Claude accepts only {sha256(connector URL)[:32]}.claudemcpcontent.com and refuses to render anything else"
		}
		return ""
	}
	return openAIDomainProblem(d)
}

func net4(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			return false
		}
	}
	return true
}

// --- URLs -----------------------------------------------------------------

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
				c.add(RuleCSPBlockedDataURL, audit.Error, f.path, r.Offset,
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
			c.add(rule, audit.Error, f.path, r.Offset, fmt.Sprintf("add %q to csp.%s in %s", origin, list, cfg),
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

// --- eval -----------------------------------------------------------------

func (c *widgetCheck) evalRules(files []scanned) {
	var mods []string
	attributed := false
	for _, f := range files {
		if len(f.res.Evals) == 0 {
			continue
		}
		if !attributed {
			mods, attributed = evalModules(c.in.Metafile, c.in.Root, c.w.Name), true
		}
		e := f.res.Evals[0]
		from := "an unknown module (a dist/ keeps no esbuild metafile; check from sources to name it)"
		if c.in.Metafile != "" {
			from = "an unknown module"
		}
		if len(mods) > 0 {
			from = strings.Join(mods, ", ")
		}
		extra := ""
		if n := len(f.res.Evals) - 1; n > 0 {
			extra = fmt.Sprintf(" (and %d more in this file)", n)
		}
		c.add(RuleJSEval, audit.Error, f.path, e.Offset, "avoid the construct or the package that uses it (zod: use jitless mode); hosts do not allow 'unsafe-eval'",
			"%s compiles code from a string at run time, which the spec CSP (no 'unsafe-eval') blocks; brought in by %s%s", e.Via, from, extra)
	}
}

// evalModules names the modules of widget name's bundle whose own source
// uses eval, from esbuild's metafile.
func evalModules(metafile, root, name string) []string {
	if metafile == "" {
		return nil
	}
	inputs, err := metafileInputs(metafile, name)
	if err != nil {
		return nil
	}
	var out []string
	for _, in := range inputs {
		data, err := readInput(root, in)
		if err != nil {
			continue
		}
		if len(ScanJS(data).Evals) > 0 {
			out = append(out, in)
		}
	}
	sort.Strings(out)
	return out
}

// --- sizes ----------------------------------------------------------------

func (c *widgetCheck) sizeRules(files []scanned) {
	page := files[0]
	if c.w.Inline && int64(len(page.data)) > c.opts.InlineBudget {
		c.add(RuleSizeInline, audit.Warning, page.path, -1, "split off heavy dependencies, lazy-load them from your public URL, or raise --budget-inline",
			"the inline document is %d bytes, over the %d-byte budget; hosts send it whole in every resources/read answer", len(page.data), c.opts.InlineBudget)
	}
	var total int64
	var parts []string
	for _, f := range files {
		n := c.transferSize(f.path, f.data)
		total += n
		parts = append(parts, fmt.Sprintf("%s %d", f.path, n))
	}
	if total > c.opts.TransferBudget {
		c.add(RuleSizeTransfer, audit.Warning, "", -1, "trim dependencies (check the bundle with esbuild's analyzer) or raise --budget-transfer",
			"the widget transfers %d bytes compressed (%s), over the %d-byte budget", total, strings.Join(parts, ", "), c.opts.TransferBudget)
	}
}

// transferSize is the smallest precompressed size of a file, or its gzip
// size when the build has no encodings (an in-memory assembly).
func (c *widgetCheck) transferSize(p string, data []byte) int64 {
	if f, ok := c.files[p]; ok && len(f.Encodings) > 0 {
		best := f.Size
		for _, e := range f.Encodings {
			best = min(best, e.Size)
		}
		return best
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	return min(int64(buf.Len()), int64(len(data)))
}

// --- HTML -----------------------------------------------------------------

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
func parseScript(s Inline) (err error) {
	defer func() {
		if recover() != nil {
			err = nil // a parser failure is not evidence of a hazard
		}
	}()
	buf := make([]byte, len(s.Text), len(s.Text)+1)
	copy(buf, s.Text)
	if _, perr := js.Parse(parse.NewInputBytes(buf), js.Options{}); perr != nil {
		msg := perr.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}

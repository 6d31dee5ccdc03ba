package check

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/cspgen"
)

// The metadata rules: both _meta shapes (ui.* and openai/*) on every list
// entry and read content item must carry one CSP and one domain, because
// hosts differ on which copy they read.

// metaLoc is one _meta object of the widget: a profile's list entry or read
// content item.
type metaLoc struct {
	name string
	read bool // the resources/read content item, which hosts prefer
	m    *assets.ResourceMeta
}

func (c *widgetCheck) metaLocs() []metaLoc {
	var out []metaLoc
	for i := range c.w.Profiles {
		p := &c.w.Profiles[i]
		out = append(out, metaLoc{p.Profile + " resources/list entry", false, &p.ListMeta}, metaLoc{p.Profile + " resources/read content", true, &p.ReadMeta})
	}
	return out
}

// cspShape is one of the two CSP shapes of a _meta object.
type cspShape struct {
	key     string          // how messages name it
	domains *cspgen.Domains // nil when the shape is missing
	snake   bool            // openai/widgetCSP, which has no base-uri list
}

// cspShapes returns l's _meta.ui.csp and _meta["openai/widgetCSP"], in that
// order.
func (l metaLoc) cspShapes() [2]cspShape {
	ui := cspShape{key: "_meta.ui.csp"}
	if l.m.UI != nil && l.m.UI.CSP != nil {
		c := l.m.UI.CSP
		ui.domains = &cspgen.Domains{Connect: c.ConnectDomains, Resource: c.ResourceDomains, Frame: c.FrameDomains, BaseURI: c.BaseURIDomains}
	}
	oa := cspShape{key: `_meta["openai/widgetCSP"]`, snake: true}
	if c := l.m.WidgetCSP; c != nil {
		oa.domains = &cspgen.Domains{Connect: c.ConnectDomains, Resource: c.ResourceDomains, Frame: c.FrameDomains, Redirect: c.RedirectDomains}
	}
	return [2]cspShape{ui, oa}
}

// metaRules checks the resource metadata of every profile and location and
// returns the policy a host enforces (from the first valid CSP, the list
// entry's ui.csp when all agree), or nil when there is none to check URLs
// against.
func (c *widgetCheck) metaRules() *cspgen.Policy {
	locs := c.metaLocs()
	ref := c.cspRules(locs)
	c.domainRules(locs)
	c.descriptionRule(locs)
	if ref != nil {
		if fr := ref.Domains().Frame; len(fr) > 0 {
			c.add(RuleCSPFrameDomains, audit.Warning, "", -1, "drop frameDomains unless the widget must embed these pages; remove the entries from csp.frameDomains in "+c.config(),
				"frameDomains (%s) lets the widget render subframes, which triggers stricter review of the app", strings.Join(fr, ", "))
		}
	}
	return ref
}

// cspRules checks that every CSP copy is present, valid and equal to the
// first valid one, which it returns, and that the manifest's csp header is
// the spec construction of it.
func (c *widgetCheck) cspRules(locs []metaLoc) *cspgen.Policy {
	cfg := c.config()
	var ref *cspgen.Policy
	var refName string
	for _, loc := range locs {
		for _, shape := range loc.cspShapes() {
			if shape.domains == nil {
				c.add(RuleMetaCSPMissing, audit.Error, "", -1, "rebuild with widgetd build, which writes both shapes on both the list entry and the read content; hosts differ on which they read",
					"%s has no %s; a host reading it applies the default CSP (ChatGPT: \"Widget CSP is not set for this template\")", loc.name, shape.key)
				continue
			}
			pol, err := cspgen.New(*shape.domains)
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
	}
	if ref != nil && c.w.CSP != "" && c.w.CSP != ref.Header() {
		c.add(RuleMetaCSPMismatch, audit.Error, "", -1, "rebuild with widgetd build",
			"the manifest's csp header %q is not the spec construction of %s (%q)", c.w.CSP, refName, ref.Header())
	}
	return ref
}

// domainCopies is where one domain key (ui.domain or openai/widgetDomain) is
// set, with its value, and where it is missing.
type domainCopies struct {
	set     []struct{ loc, val string }
	missing []string
}

func (d *domainCopies) note(loc, val string) {
	if val == "" {
		d.missing = append(d.missing, loc)
		return
	}
	d.set = append(d.set, struct{ loc, val string }{loc, val})
}

// domainRules checks that the domain is set, the same on every copy and
// well-formed for the hosts that read it.
func (c *widgetCheck) domainRules(locs []metaLoc) {
	cfg := c.config()
	var ui, oa domainCopies
	for _, loc := range locs {
		uiDomain := ""
		if loc.m.UI != nil {
			uiDomain = loc.m.UI.Domain
		}
		ui.note(loc.name, uiDomain)
		oa.note(loc.name, loc.m.WidgetDomain)
	}
	if len(ui.set) == 0 && len(oa.set) == 0 {
		c.add(RuleDomainMissing, audit.Warning, "", -1, `set "domain": "https://<your app origin>" in `+cfg+"; it must be an HTTPS origin you own, unique per app",
			"Widget domain is not set for this template; ChatGPT requires a unique domain for app submission")
		return
	}
	c.domainCopyRules(ui, oa)
	if len(oa.set) > 0 {
		if msg := openAIDomainProblem(oa.set[0].val); msg != "" {
			c.add(RuleDomainInvalid, audit.Error, "", -1, `set "domain" in `+cfg+" to an HTTPS origin you own, such as https://widgets.example.com",
				`_meta["openai/widgetDomain"] %q: %s`, oa.set[0].val, msg)
		}
	}
	if len(ui.set) > 0 && (len(oa.set) == 0 || ui.set[0].val != oa.set[0].val) {
		if msg := uiDomainProblem(ui.set[0].val); msg != "" {
			c.add(RuleDomainInvalid, audit.Error, "", -1, "use the HTTPS origin for ChatGPT and let the registry send Claude its hash domain per request (assets.WithConnectorURL)",
				"_meta.ui.domain %q: %s", ui.set[0].val, msg)
		}
	}
}

// domainCopyRules reports a domain set on some copies but not others, set
// in one shape but not ChatGPT's, or different between copies.
func (c *widgetCheck) domainCopyRules(ui, oa domainCopies) {
	const fix = "rebuild with widgetd build, which writes the domain on every list entry and read content"
	if len(oa.set) > 0 && len(oa.missing) > 0 {
		c.add(RuleMetaDomainMismatch, audit.Error, "", -1, fix,
			`_meta["openai/widgetDomain"] is set on %s but missing on %s`, oa.set[0].loc, strings.Join(oa.missing, ", "))
	}
	if len(ui.set) > 0 && len(ui.missing) > 0 {
		c.add(RuleMetaDomainMismatch, audit.Error, "", -1, fix,
			"_meta.ui.domain is set on %s but missing on %s", ui.set[0].loc, strings.Join(ui.missing, ", "))
	}
	if len(oa.set) == 0 {
		c.add(RuleMetaDomainMismatch, audit.Error, "", -1, `set "domain" in `+c.config()+` and rebuild; widgetd writes openai/widgetDomain from it`,
			`_meta.ui.domain is set but _meta["openai/widgetDomain"] is not; ChatGPT reads the latter`)
	}
	for _, copies := range []domainCopies{ui, oa} {
		for _, s := range copies.set[min(1, len(copies.set)):] {
			if first := copies.set[0]; s.val != first.val {
				c.add(RuleMetaDomainMismatch, audit.Error, "", -1, "rebuild with widgetd build",
					"the domain on %s (%q) differs from the one on %s (%q)", s.loc, s.val, first.loc, first.val)
			}
		}
	}
}

// descriptionRule warns when a read content item has no
// openai/widgetDescription.
func (c *widgetCheck) descriptionRule(locs []metaLoc) {
	for _, loc := range locs {
		if loc.read && strings.TrimSpace(loc.m.WidgetDescription) == "" {
			c.add(RuleWidgetDescription, audit.Warning, "", -1, `set "widgetDescription" in `+c.config()+" to one sentence telling the model what the widget shows",
				`_meta["openai/widgetDescription"] is not set; ChatGPT gives the model no summary of what the widget shows`)
			return
		}
	}
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

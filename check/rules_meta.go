package check

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/cspgen"
)

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

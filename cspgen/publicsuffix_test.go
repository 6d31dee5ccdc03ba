package cspgen

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/net/publicsuffix"
)

// TestWildcardPublicSuffixRules runs one row per kind of Public Suffix List
// rule against real entries of the List that golang.org/x/net/publicsuffix
// embeds: a CSP wildcard "*.X" is refused when X is a public suffix, or when
// a wildcard rule "*.X" makes every name directly under X one, unless an
// exception rule makes X registrable.
func TestWildcardPublicSuffixRules(t *testing.T) {
	const (
		plain    = "covers a public suffix: anyone can register a site under"
		wildRule = "covers public suffixes: the names directly under"
	)
	tests := []struct {
		name  string
		entry string
		want  string // "" when the entry is accepted; else a substring of the reason
	}{
		// Plain rules (ICANN section).
		{"plain suffix", "https://*.co.uk", plain},
		{"under plain suffix", "https://*.example.co.uk", ""},
		// Wildcard rules: every name one level below is a public suffix.
		{"wildcard rule sch.uk", "https://*.sch.uk", wildRule + " sch.uk are themselves public suffixes (Public Suffix List rule *.sch.uk)"},
		{"wildcard rule nagoya.jp", "https://*.nagoya.jp", "(Public Suffix List rule *.nagoya.jp)"},
		{"wildcard rule kawasaki.jp", "https://*.kawasaki.jp", "(Public Suffix List rule *.kawasaki.jp)"},
		{"wildcard rule private section", "https://*.compute-1.amazonaws.com", "(Public Suffix List rule *.compute-1.amazonaws.com)"},
		{"wildcard rule wss", "wss://*.compute.amazonaws.com", "(Public Suffix List rule *.compute.amazonaws.com)"},
		{"name a wildcard rule makes a suffix", "https://*.school.sch.uk", plain},
		{"below a name a wildcard rule makes a suffix", "https://*.mine.school.sch.uk", ""},
		// Exception rules make one name registrable again.
		{"exception rule", "https://*.city.kawasaki.jp", ""},
		{"exception rule other city", "https://*.city.nagoya.jp", ""},
		{"exception rule www.ck", "https://*.www.ck", ""},
		{"beside an exception", "https://*.ward.kawasaki.jp", plain},
		// Private section, counted as the ICANN section is.
		{"private suffix", "https://*.github.io", plain},
		{"under private suffix", "https://*.octo.github.io", ""},
		{"private not a suffix", "https://*.amazonaws.com", ""},
		// Internationalised names, in punycode (Unicode is refused earlier).
		{"punycode suffix", "https://*.xn--55qx5d.cn", plain},
		{"punycode registrable", "https://*.xn--bcher-kva.example", ""},
		{"punycode under wildcard rule", "https://*.xn--bcher-kva.sch.uk", plain},
		{"unicode", "https://*.公司.cn", "punycode"},
		// Case and a trailing dot.
		{"uppercase wildcard rule", "HTTPS://*.Compute-1.AmazonAWS.COM", "(Public Suffix List rule *.compute-1.amazonaws.com)"},
		{"uppercase exception", "https://*.CITY.Kawasaki.JP", ""},
		{"trailing dot", "https://*.sch.uk.", "empty label"},
		// A port does not change the host's rules.
		{"port", "https://*.sch.uk:8443", "(Public Suffix List rule *.sch.uk)"},
		// A name that is not a wildcard is never refused as a suffix.
		{"exact host under wildcard rule", "https://ec2-1-2-3-4.compute-1.amazonaws.com", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(Domains{Connect: []string{tt.entry}})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("New refused %q: %v", tt.entry, err)
				}
				if got := p.Domains().Connect; len(got) != 1 {
					t.Fatalf("New kept %q, want one origin", got)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("New accepted %q (header %q); want a reason containing %q", tt.entry, p.Header(), tt.want)
			}
			if !strings.Contains(e.Reason, tt.want) {
				t.Errorf("reason %q does not contain %q", e.Reason, tt.want)
			}
		})
	}
}

// TestWildcardSuffixReasonSaysHowToFix checks the whole message of the new
// refusal for one of the four names: what is wrong, which List rule,
// and what to write instead.
func TestWildcardSuffixReasonSaysHowToFix(t *testing.T) {
	_, err := New(Domains{Resource: []string{"https://*.compute-1.amazonaws.com"}})
	want := `resourceDomains[0] "https://*.compute-1.amazonaws.com": wildcard "*.compute-1.amazonaws.com" covers public suffixes: ` +
		`the names directly under compute-1.amazonaws.com are themselves public suffixes (Public Suffix List rule *.compute-1.amazonaws.com), ` +
		`so anyone can register sites below them and this wildcard would allow origins you do not control; ` +
		`list the exact host you use, such as https://yours.compute-1.amazonaws.com`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

// TestSuffixProbeLabelNamedByNoRule guards the probe: were a rule of the
// List ever to name it, a probe under a plain domain would come back as a
// suffix (a normal rule) or as registrable under a wildcard rule (an
// exception), and the check would go wrong.
func TestSuffixProbeLabelNamedByNoRule(t *testing.T) {
	for _, base := range []string{"com", "example.com", "sch.uk", "kawasaki.jp", "compute-1.amazonaws.com", "github.io"} {
		probe := suffixProbeLabel + "." + base
		other := "some-other-label." + base
		ps, _ := publicsuffix.PublicSuffix(probe)
		os, _ := publicsuffix.PublicSuffix(other)
		if strings.TrimPrefix(ps, suffixProbeLabel+".") != strings.TrimPrefix(os, "some-other-label.") {
			t.Errorf("the List treats %q (suffix %q) unlike %q (suffix %q)", probe, ps, other, os)
		}
	}
}

// fuzzedHostName is the host name in "https://*."+name as a browser reads
// it: up to the first path, query or fragment separator, without a port,
// in lower case. The List is asked about that name, not the raw input
// ("github.io#" names github.io).
func fuzzedHostName(name string) string {
	if end := strings.IndexAny(name, `/?#\`); end >= 0 {
		name = name[:end]
	}
	if colon := strings.LastIndexByte(name, ':'); colon >= 0 {
		name = name[:colon]
	}
	return strings.ToLower(name)
}

// FuzzWildcardSuffix feeds wildcard hosts to New and checks the decision
// against the List directly, with a child label other than the probe: an
// accepted "*.X" has neither X nor a name directly under X as a public
// suffix; a refusal for a suffix names one that is.
func FuzzWildcardSuffix(f *testing.F) {
	for _, s := range []string{"sch.uk", "compute-1.amazonaws.com", "city.kawasaki.jp", "kawasaki.jp", "www.ck", "co.uk", "example.com", "github.io", "xn--bcher-kva.example", "a.b.c.sch.uk", "CITY.nagoya.JP"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if len(name) > 300 {
			return
		}
		p, err := New(Domains{Resource: []string{"https://*." + name}})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if strings.Contains(e.Reason, "public suffix") {
				lc := fuzzedHostName(name)
				ps, _ := publicsuffix.PublicSuffix(lc)
				child, _ := publicsuffix.PublicSuffix("fuzz-child." + lc)
				if ps != lc && child != "fuzz-child."+lc {
					t.Fatalf("*.%s refused as a public suffix, but neither %s nor a name under it is one: %s", name, lc, e.Reason)
				}
			}
			return
		}
		host := strings.TrimPrefix(p.Domains().Resource[0], "https://*.")
		if ps, _ := publicsuffix.PublicSuffix(host); ps == host {
			t.Fatalf("*.%s accepted, but %s is a public suffix", name, host)
		}
		if ps, _ := publicsuffix.PublicSuffix("fuzz-child." + host); ps == "fuzz-child."+host {
			t.Fatalf("*.%s accepted, but the names directly under %s are public suffixes", name, host)
		}
	})
}

package assets_test

import (
	"encoding/json"
	"html"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
)

// TestDevModeRead reads every current URI of a dist in dev mode and checks
// the shell: the widget's CSP plus the dev origin as a <meta> policy, the
// shell's config naming the dev URL, widget and profile, the read _meta
// widened by the dev origin in both CSP shapes (everything else kept, host
// tailoring still applied), and resources/list exactly as without dev mode.
func TestDevModeRead(t *testing.T) {
	const dev = "https://abc.trycloudflare.com"
	const connector = "https://mcp.example.com/mcp"
	plain, d := assetstest.Load(t, assetstest.Options{}, assets.WithConnectorURL(connector))
	reg, err := assets.Load(os.DirFS(d.Dir), assets.WithConnectorURL(connector), assets.WithDev(dev+"/"))
	if err != nil {
		t.Fatal(err)
	}
	if reg.DevURL() != dev {
		t.Fatalf("DevURL = %q, want %q", reg.DevURL(), dev)
	}
	claude := assets.Client{Name: "claude-ai"}
	if got, want := mustJSON(t, reg.Resources(claude)), mustJSON(t, plain.Resources(claude)); got != want {
		t.Errorf("resources/list changed in dev mode:\n%s\nwant\n%s", got, want)
	}
	metaRE := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
	cfgRE := regexp.MustCompile(`<meta name="widgetd-dev" content="([^"]*)">`)
	for _, w := range d.Manifest.Widgets {
		for _, p := range w.Profiles {
			t.Run(w.Name+"/"+p.Profile, func(t *testing.T) {
				got, err := reg.Read(p.URI, claude)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := plain.Read(p.URI, claude)
				if got.URI != p.URI || got.MIMEType != p.MIMEType {
					t.Errorf("read %s: URI %q MIME %q", p.URI, got.URI, got.MIMEType)
				}
				m := metaRE.FindStringSubmatch(got.Text)
				if m == nil {
					t.Fatalf("shell has no CSP <meta>:\n%.400s", got.Text)
				}
				if got, want := html.UnescapeString(m[1]), widenedCSP(w.CSP, dev); got != want {
					t.Errorf("shell CSP\n%s\nwant the widget's with %s in its load and connect directives\n%s", got, dev, want)
				}
				var cfg map[string]string
				if c := cfgRE.FindStringSubmatch(got.Text); c == nil || json.Unmarshal([]byte(html.UnescapeString(c[1])), &cfg) != nil ||
					cfg["dev"] != dev || cfg["widget"] != w.Name || cfg["profile"] != p.Profile {
					t.Errorf("shell config %v, want dev %s widget %s profile %s", cfg, dev, w.Name, p.Profile)
				}
				if !strings.Contains(got.Text, `/_widgetd/events`) || strings.Contains(got.Text, want.Text) {
					t.Errorf("read is not the shell (or embeds the built document)")
				}
				checkDevMeta(t, got.Meta, want.Meta, dev)
			})
		}
	}
}

// checkDevMeta checks that got is want with dev added to the resource and
// connect domains of both CSP shapes.
func checkDevMeta(t *testing.T, got, want map[string]any, dev string) {
	t.Helper()
	ui, _ := got["ui"].(map[string]any)
	csp, _ := ui["csp"].(map[string]any)
	wcsp, _ := got["openai/widgetCSP"].(map[string]any)
	for _, l := range []any{csp["resourceDomains"], csp["connectDomains"], wcsp["resource_domains"], wcsp["connect_domains"]} {
		list, _ := l.([]any)
		if !slices.Contains(list, any(dev)) {
			t.Errorf("read _meta list %v lacks %s", l, dev)
		}
	}
	if ui["domain"] != want["ui"].(map[string]any)["domain"] {
		t.Errorf("ui.domain %v, want the tailored %v", ui["domain"], want["ui"].(map[string]any)["domain"])
	}
	strip := func(m map[string]any) string {
		b, _ := json.Marshal(m)
		var c map[string]any
		_ = json.Unmarshal(b, &c)
		delete(c, "openai/widgetCSP")
		if u, ok := c["ui"].(map[string]any); ok {
			delete(u, "csp")
		}
		return mustJSON(t, c)
	}
	if strip(got) != strip(want) {
		t.Errorf("read _meta beyond the CSP changed:\n%s\nwant\n%s", strip(got), strip(want))
	}
}

// widenedCSP is the expected shell policy: header with source added to the
// load and connect directives, every other directive as it was.
func widenedCSP(header, source string) string {
	widen := map[string]bool{"script-src": true, "style-src": true, "img-src": true, "font-src": true, "media-src": true, "connect-src": true}
	var out []string
	for _, d := range strings.Split(header, ";") {
		f := strings.Fields(d)
		if len(f) == 0 {
			continue
		}
		if widen[f[0]] {
			f = append(f, source)
		}
		out = append(out, strings.Join(f, " "))
	}
	return strings.Join(out, "; ")
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDevModeSwitch checks how dev mode is switched on and refused: by
// WithDev, by WIDGETD_DEV_URL alone, off with WithDev("") even when the
// variable is set, and a bad URL fails Load naming where it came from.
func TestDevModeSwitch(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	for _, tc := range []struct {
		name, env string
		opts      []assets.Option
		want      string // DevURL, or the error's text
		fails     bool
	}{
		{name: "off", want: ""},
		{name: "WithDev loopback http", opts: []assets.Option{assets.WithDev("http://127.0.0.1:5173")}, want: "http://127.0.0.1:5173"},
		{name: "env alone", env: "https://dev.example.com/sub/", want: "https://dev.example.com/sub"},
		{name: "WithDev empty beats env", env: "https://dev.example.com", opts: []assets.Option{assets.WithDev("")}, want: ""},
		{name: "env http not loopback", env: "http://dev.example.com", fails: true, want: "WIDGETD_DEV_URL: public URL \"http://dev.example.com\" must use https"},
		{name: "WithDev not a URL", opts: []assets.Option{assets.WithDev("localhost:5173")}, fails: true, want: "WithDev: public URL \"localhost:5173\" must be an absolute http(s) URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(assets.DevURLEnv, tc.env)
			reg, err := assets.Load(os.DirFS(d.Dir), tc.opts...)
			if tc.fails {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Load error %v, want one containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if reg.DevURL() != tc.want {
				t.Errorf("DevURL = %q, want %q", reg.DevURL(), tc.want)
			}
		})
	}
}

// TestDevModeRetainedURI checks that a retained build's URI still reads as
// the shell of its widget (the host that cached it sees live code too).
func TestDevModeRetainedURI(t *testing.T) {
	reg, d := assetstest.Load(t, assetstest.Options{}, assets.WithDev("http://localhost:5173"))
	for _, u := range d.OldURIs {
		c, err := reg.Read(u, assets.Client{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(c.Text, `name="widgetd-dev"`) {
			t.Errorf("retained %s does not read as the dev shell", u)
		}
	}
}

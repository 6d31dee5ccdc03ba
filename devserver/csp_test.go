package devserver

import (
	"strings"
	"testing"
)

func TestAdvise(t *testing.T) {
	const cfg = "widgets/w/widget.json"
	tests := []struct {
		directive, blocked string
		origin, field      string
		msg                string
	}{
		{"connect-src", "https://api.example.com/v1?q=1", "https://api.example.com", "csp.connectDomains", `add "https://api.example.com" to csp.connectDomains in widgets/w/widget.json`},
		{"connect-src", "wss://live.example.com:8443/socket", "wss://live.example.com:8443", "csp.connectDomains", `add "wss://live.example.com:8443"`},
		{"script-src-elem", "https://cdn.example.com/lib.js", "https://cdn.example.com", "csp.resourceDomains", "to csp.resourceDomains"},
		{"style-src-elem", "https://fonts.googleapis.com/css2", "https://fonts.googleapis.com", "csp.resourceDomains", "to csp.resourceDomains"},
		{"img-src", "https://img.example.com/a.png", "https://img.example.com", "csp.resourceDomains", "to csp.resourceDomains"},
		{"font-src", "https://fonts.gstatic.com/x.woff2", "https://fonts.gstatic.com", "csp.resourceDomains", "to csp.resourceDomains"},
		{"media-src", "https://media.example.com/v.mp4", "https://media.example.com", "csp.resourceDomains", "to csp.resourceDomains"},
		{"frame-src", "https://www.youtube.com/embed/x", "https://www.youtube.com", "csp.frameDomains", "to csp.frameDomains"},
		{"child-src", "https://embed.example.com/", "https://embed.example.com", "csp.frameDomains", "to csp.frameDomains"},
		{"base-uri", "https://base.example.com/", "https://base.example.com", "csp.baseUriDomains", "to csp.baseUriDomains"},
		{"connect-src", "http://api.example.com/", "http://api.example.com", "csp.connectDomains", "cannot declare it"},
		{"connect-src", "http://localhost:3000/api", "http://localhost:3000", "csp.connectDomains", `add "http://localhost:3000"`},
		{"script-src", "eval", "", "", "never allow 'unsafe-eval'"},
		{"worker-src", "https://w.example.com/w.js", "https://w.example.com", "", "allows nothing for worker-src"},
		{"object-src", "https://o.example.com/x.swf", "https://o.example.com", "", "allows nothing"},
		{"font-src", "data", "", "", "widgetd dev --public-url URL, widgetd build --public-url"},
		{"worker-src", "blob", "", "", "Start the worker from a file"},
		{"font-src", "data:font/woff2;base64,AAAA", "", "", "no widget.json field that allows data:"},
		{"script-src-elem", "blob:http://127.0.0.1:5174/uuid", "", "", "no widget.json field that allows blob:"},
		{"style-src-attr", "inline", "", "", "inline script or style"},
	}
	for _, tc := range tests {
		t.Run(tc.directive+" "+tc.blocked, func(t *testing.T) {
			a := advise(cspViolation{Widget: "w", Directive: tc.directive, BlockedURI: tc.blocked}, cfg)
			if a.Origin != tc.origin || a.Field != tc.field || !strings.Contains(a.Message, tc.msg) {
				t.Errorf("advise = origin %q field %q msg %q; want origin %q field %q msg containing %q", a.Origin, a.Field, a.Message, tc.origin, tc.field, tc.msg)
			}
		})
	}
}

func FuzzAdvise(f *testing.F) {
	f.Add("connect-src", "https://a.example/x")
	f.Add("img-src", "data:image/png;base64,xx")
	f.Add("frame-src", "http://[::1]:99/")
	f.Add("", "%zz")
	f.Fuzz(func(t *testing.T, directive, blocked string) {
		a := advise(cspViolation{Directive: directive, BlockedURI: blocked}, "w.json")
		if a.Message == "" {
			t.Fatal("empty message")
		}
		if a.Field != "" && (a.Origin == "" || !strings.HasPrefix(a.Field, "csp.")) {
			t.Fatalf("field %q without origin %q", a.Field, a.Origin)
		}
	})
}

func TestInjectScripts(t *testing.T) {
	tests := []struct{ doc, want string }{
		{`<!doctype html><html><head><meta charset=utf-8></head><body>x</body></html>`, `<!doctype html><html><head>S<meta charset=utf-8></head><body>x</body></html>`},
		{`<!DOCTYPE html><HEAD lang=en><title>t</title>`, `<!DOCTYPE html><HEAD lang=en>S<title>t</title>`},
		{`<!doctype html><meta charset=utf-8><div id=root></div>`, `<!doctype html>S<meta charset=utf-8><div id=root></div>`},
		{`<div>no doctype</div>`, `S<div>no doctype</div>`},
		{``, `S`},
	}
	for _, tc := range tests {
		if got := string(injectScripts([]byte(tc.doc), "S")); got != tc.want {
			t.Errorf("injectScripts(%q) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}

package cspgen

import "testing"

func TestAllows(t *testing.T) {
	p := mustNew(t, Domains{
		Connect:  []string{"https://api.example.com", "wss://rt.example.com", "http://localhost:5173", "https://alt.example.com:8443", "ws://127.0.0.1:9000"},
		Resource: []string{"https://cdn.example.com", "https://*.static.example.com"},
		Frame:    []string{"https://embed.example.com"},
		BaseURI:  []string{"https://base.example.com"},
	})
	empty := mustNew(t, Domains{})
	tests := []struct {
		name string
		p    *Policy
		d    Directive
		url  string
		want bool
	}{
		// Exact host, any path, query, fragment.
		{"script on cdn", p, ScriptSrc, "https://cdn.example.com/app.js", true},
		{"style on cdn", p, StyleSrc, "https://cdn.example.com/a.css?v=1#x", true},
		{"font on cdn", p, FontSrc, "https://CDN.Example.com/f.woff2", true},
		{"cdn no path", p, ImgSrc, "https://cdn.example.com", true},
		{"cdn explicit default port", p, MediaSrc, "https://cdn.example.com:443/v.mp4", true},
		{"cdn other port", p, ScriptSrc, "https://cdn.example.com:8443/app.js", false},
		{"cdn over http", p, ScriptSrc, "http://cdn.example.com/app.js", false},
		{"cdn credentials ignored", p, ScriptSrc, "https://u:p@cdn.example.com/app.js", true},
		{"other host", p, ScriptSrc, "https://evil.com/app.js", false},
		{"suffix is not subdomain", p, ScriptSrc, "https://evilcdn.example.com/app.js", false},
		{"subdomain of exact", p, ScriptSrc, "https://x.cdn.example.com/app.js", false},
		{"resource list is not connect", p, ConnectSrc, "https://cdn.example.com/api", false},
		// Wildcards.
		{"wildcard one level", p, ImgSrc, "https://a.static.example.com/i.png", true},
		{"wildcard two levels", p, ImgSrc, "https://a.b.static.example.com/i.png", true},
		{"wildcard not bare parent", p, ImgSrc, "https://static.example.com/i.png", false},
		{"wildcard not lookalike", p, ImgSrc, "https://evilstatic.example.com/i.png", false},
		{"wildcard port", p, ImgSrc, "https://a.static.example.com:444/i.png", false},
		// data: and blob:, per the spec construction.
		{"data img", p, ImgSrc, "data:image/png;base64,iVBORw0KGgo=", true},
		{"data media", empty, MediaSrc, "data:audio/wav;base64,AAAA", true},
		{"DATA uppercase", empty, ImgSrc, "DATA:image/gif,GIF89a", true},
		{"data script", p, ScriptSrc, "data:text/javascript,alert(1)", false},
		{"data style", p, StyleSrc, "data:text/css,a{}", false},
		{"data font", p, FontSrc, "data:font/woff2;base64,AAAA", false},
		{"data connect", p, ConnectSrc, "data:,x", false},
		{"data frame", p, FrameSrc, "data:text/html,x", false},
		{"blob img", p, ImgSrc, "blob:https://cdn.example.com/1234", false},
		{"blob script", p, ScriptSrc, "blob:https://cdn.example.com/1234", false},
		// Connect: schemes, upgrades and WebSocket.
		{"fetch api", p, ConnectSrc, "https://api.example.com/v1/items", true},
		{"wss api via https source", p, ConnectSrc, "wss://api.example.com/socket", true},
		{"ws api not via https source", p, ConnectSrc, "ws://api.example.com/socket", false},
		{"wss source", p, ConnectSrc, "wss://rt.example.com/live", true},
		{"wss source matches https", p, ConnectSrc, "https://rt.example.com/poll", true},
		{"wss source not ws", p, ConnectSrc, "ws://rt.example.com/live", false},
		{"wss source port", p, ConnectSrc, "wss://rt.example.com:8443/live", false},
		{"http dev", p, ConnectSrc, "http://localhost:5173/@vite/client", true},
		{"http dev upgraded to https", p, ConnectSrc, "https://localhost:5173/", true},
		{"http dev ws same port", p, ConnectSrc, "ws://localhost:5173/hmr", true},
		{"http dev wss same port", p, ConnectSrc, "wss://localhost:5173/hmr", true},
		{"http dev other port", p, ConnectSrc, "http://localhost:5174/", false},
		{"http dev no port", p, ConnectSrc, "http://localhost/", false},
		{"ws source", p, ConnectSrc, "ws://127.0.0.1:9000/", true},
		{"ws source matches http", p, ConnectSrc, "http://127.0.0.1:9000/", true},
		{"ws source other ip", p, ConnectSrc, "ws://127.0.0.2:9000/", false},
		{"explicit port", p, ConnectSrc, "https://alt.example.com:8443/x", true},
		{"explicit port not default", p, ConnectSrc, "https://alt.example.com/x", false},
		{"ftp", p, ConnectSrc, "ftp://api.example.com/", false},
		// Frame and base-uri.
		{"frame declared", p, FrameSrc, "https://embed.example.com/v/1", true},
		{"frame undeclared", p, FrameSrc, "https://cdn.example.com/", false},
		{"frame none", empty, FrameSrc, "https://embed.example.com/", false},
		{"base declared", p, BaseURI, "https://base.example.com/", true},
		{"base self only", empty, BaseURI, "https://base.example.com/", false},
		// 'self' never matches: relative and same-origin-looking URLs are blocked.
		{"relative", p, ScriptSrc, "/app.js", false},
		{"scheme relative", p, ScriptSrc, "//cdn.example.com/app.js", false},
		{"about blank", p, FrameSrc, "about:blank", false},
		{"javascript", p, FrameSrc, "javascript:alert(1)", false},
		{"empty", p, ImgSrc, "", false},
		{"unparsable", p, ScriptSrc, "https://cdn.example.com:99999/", false},
		{"http no host", p, ConnectSrc, "http:///x", false},
		{"bad directive", p, Directive(0), "https://cdn.example.com/", false},
		{"bad directive high", p, Directive(99), "https://cdn.example.com/", false},
		{"nil policy", nil, ImgSrc, "data:image/png,x", true},
		{"nil policy remote", nil, ImgSrc, "https://cdn.example.com/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Allows(tt.d, tt.url); got != tt.want {
				t.Errorf("Allows(%v, %q) = %v, want %v\nheader: %s", tt.d, tt.url, got, tt.want, tt.p.Header())
			}
		})
	}
}

func TestAllowsIPv6(t *testing.T) {
	p := mustNew(t, Domains{Connect: []string{"http://[::1]:8080"}})
	for url, want := range map[string]bool{
		"http://[::1]:8080/x":   true,
		"ws://[::1]:8080/x":     true,
		"http://[::1]:8081/x":   false,
		"http://[::2]:8080/x":   false,
		"http://localhost:8080": false,
	} {
		if got := p.Allows(ConnectSrc, url); got != want {
			t.Errorf("Allows(connect-src, %q) = %v, want %v", url, got, want)
		}
	}
}

// TestMatchSource covers source expressions the spec construction never
// emits but parseDirectives may return, so the matcher holds for any CSP.
func TestMatchSource(t *testing.T) {
	tests := []struct {
		expr, url string
		want      bool
	}{
		{"*", "https://any.com/", true},
		{"*", "http://any.com/", true},
		{"*", "data:,x", false},
		{"https:", "https://any.com/", true},
		{"https:", "wss://any.com/", true},
		{"http:", "https://any.com/", true},
		{"https:", "http://any.com/", false},
		{"https://*", "https://any.com/", true},
		{"https://a.com:*", "https://a.com:1234/", true},
		{"https://a.com:443", "https://a.com/", true},
		{"http://a.com:80", "https://a.com/", false},
		{"a.com", "https://a.com/", true},
		{"a.com", "http://a.com/", false},
		{"https://a.com/js/", "https://a.com/js/app.js", true},
		{"https://a.com/js/", "https://a.com/css/a.css", false},
		{"https://a.com/js/app.js", "https://a.com/js/app.js", true},
		{"https://a.com/js/app.js", "https://a.com/js/app2.js", false},
		{"'self'", "https://a.com/", false},
		{"'unsafe-inline'", "https://a.com/", false},
		{"'none'", "https://a.com/", false},
		{"", "https://a.com/", false},
	}
	for _, tt := range tests {
		tg, ok := parseTarget(tt.url)
		if !ok {
			t.Fatalf("parseTarget(%q) failed", tt.url)
		}
		if got := matchSource(tt.expr, tg); got != tt.want {
			t.Errorf("matchSource(%q, %q) = %v, want %v", tt.expr, tt.url, got, tt.want)
		}
	}
}

func TestDirective(t *testing.T) {
	for d := ConnectSrc; d <= BaseURI; d++ {
		got, ok := ParseDirective(d.String())
		if !ok || got != d {
			t.Errorf("ParseDirective(%q) = %v, %v", d.String(), got, ok)
		}
		if d.List() == "" {
			t.Errorf("%v has no list", d)
		}
	}
	if _, ok := ParseDirective("object-src"); ok {
		t.Error("object-src is not a checkable directive")
	}
	if ImgSrc.List() != FieldResource || ConnectSrc.List() != FieldConnect || FrameSrc.List() != FieldFrame || BaseURI.List() != FieldBaseURI {
		t.Error("wrong list mapping")
	}
	if Directive(42).String() != "Directive(42)" || Directive(42).List() != "" {
		t.Error("invalid directive not reported")
	}
}

func TestOriginOf(t *testing.T) {
	tests := []struct{ url, want string }{
		{"https://CDN.example.com/a/b.js?x#y", "https://cdn.example.com"},
		{"https://cdn.example.com:443/", "https://cdn.example.com"},
		{"https://cdn.example.com:8443/", "https://cdn.example.com:8443"},
		{"WSS://rt.example.com:443/s", "wss://rt.example.com"},
		{"http://[::1]:5173/", "http://[::1]:5173"},
		{"data:,x", ""},
		{"/relative", ""},
		{"https://a.com:0/", ""},
	}
	for _, tt := range tests {
		got, err := OriginOf(tt.url)
		if tt.want == "" {
			if err == nil {
				t.Errorf("OriginOf(%q) = %q, want error", tt.url, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("OriginOf(%q) = %q, %v, want %q", tt.url, got, err, tt.want)
		}
	}
}

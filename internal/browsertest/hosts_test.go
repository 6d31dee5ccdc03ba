package browsertest

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestInjectChatGPT(t *testing.T) {
	const tag = `<script src="/chatgpt.js"></script>`
	cases := []struct {
		name, in, want string
		err            bool
	}{
		{"minified shell", `<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>`,
			`<!doctype html><html><head>` + tag + `<meta charset="utf-8"></head><body></body></html>`, false},
		{"head with attributes, upper case", "<HTML><HEAD lang=en>\n<title>x</title></HEAD></HTML>",
			"<HTML><HEAD lang=en>" + tag + "\n<title>x</title></HEAD></HTML>", false},
		{"no head", `<html><body><header>x</header></body></html>`, "", true},
		{"unterminated", `<html><head`, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := InjectChatGPT([]byte(c.in))
			if c.err {
				if err == nil {
					t.Fatalf("want error, got %q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestWidgetHandler(t *testing.T) {
	h := WidgetHandler([]byte(`<html><head></head></html>`), "default-src 'none'")
	for _, c := range []struct{ url, body string }{
		{"/w/x", `<html><head></head></html>`},
		{"/w/x?" + ChatGPTQuery, `<html><head><script src="/chatgpt.js"></script></head></html>`},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.url, nil))
		if rec.Code != 200 || rec.Body.String() != c.body {
			t.Errorf("%s: %d %q, want 200 %q", c.url, rec.Code, rec.Body, c.body)
		}
		if got := rec.Header().Get("Content-Security-Policy"); got != "default-src 'none'" {
			t.Errorf("%s: CSP %q", c.url, got)
		}
	}
}

func TestCheckNodeModulesSaysWhatToRun(t *testing.T) {
	dir := t.TempDir()
	_, err := CheckNodeModules(dir, "react")
	if err == nil || !strings.Contains(err.Error(), "run npm ci in "+dir) {
		t.Errorf("error %v does not say to run npm ci in %s", err, dir)
	}
}

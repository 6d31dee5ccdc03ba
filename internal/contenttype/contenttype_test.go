package contenttype

import "testing"

func TestFor(t *testing.T) {
	for name, want := range map[string]string{
		"weather.0123456789abcdef.html": "text/html; charset=utf-8",
		"assets/app-ABC.JS":             "text/javascript; charset=utf-8",
		"assets/font.woff2":             "font/woff2",
		"assets/data.bin":               "application/octet-stream",
		"README":                        "application/octet-stream",
	} {
		if got := For(name); got != want {
			t.Errorf("For(%q) = %q, want %q", name, got, want)
		}
	}
}

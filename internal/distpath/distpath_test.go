package distpath

import "testing"

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"manifest.json", true},
		{"assets/a.1234.js", true},
		{"assets/a.js.br", true},
		{"..foo/a.js", true},
		{"a..b", true},
		{"", false},
		{".", false},
		{"..", false},
		{"../a.js", false},
		{"assets/../a.js", false},
		{"assets/./a.js", false},
		{"/assets/a.js", false},
		{"assets/", false},
		{"assets//a.js", false},
		{`assets\a.js`, false},
		{"assets/a\x00.js", false},
	} {
		if got := Valid(tc.p); got != tc.want {
			t.Errorf("Valid(%q) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

package specifier

import "testing"

func TestIsBare(t *testing.T) {
	for spec, want := range map[string]bool{
		"react": true, "@scope/pkg/sub": true, "solid-js/web": true,
		"": false, "./a": false, "../a": false, "/abs/a": false, "node:fs": false, "https://x.test/a.js": false,
	} {
		if got := IsBare(spec); got != want {
			t.Errorf("IsBare(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestSplitPackage(t *testing.T) {
	for _, tc := range []struct{ spec, name, sub string }{
		{"react", "react", "."},
		{"react/jsx-runtime", "react", "./jsx-runtime"},
		{"@scope/pkg", "@scope/pkg", "."},
		{"@scope/pkg/a/b.css", "@scope/pkg", "./a/b.css"},
		{"@scope", "@scope", "."},
	} {
		if name, sub := SplitPackage(tc.spec); name != tc.name || sub != tc.sub {
			t.Errorf("SplitPackage(%q) = %q, %q; want %q, %q", tc.spec, name, sub, tc.name, tc.sub)
		}
	}
}

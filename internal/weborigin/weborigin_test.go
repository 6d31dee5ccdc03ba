package weborigin

import "testing"

func TestOf(t *testing.T) {
	for _, tc := range []struct{ u, want string }{
		{"https://cdn.example.com/w", "https://cdn.example.com"},
		{"https://cdn.example.com", "https://cdn.example.com"},
		{"https://cdn.example.com/a/b/c", "https://cdn.example.com"},
		{"http://localhost:5173/widgets", "http://localhost:5173"},
		{"http://[::1]:8080/x", "http://[::1]:8080"},
		{"https://abc.trycloudflare.com", "https://abc.trycloudflare.com"},
		{"/relative/path", ""},
		{"cdn.example.com/w", ""},
		{"", ""},
		{"https://%zz", ""},
	} {
		if got := Of(tc.u); got != tc.want {
			t.Errorf("Of(%q) = %q, want %q", tc.u, got, tc.want)
		}
	}
}

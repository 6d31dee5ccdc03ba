package publicurl

import "testing"

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"https://cdn.example.com/widgets/", "https://cdn.example.com/widgets", true},
		{"https://cdn.example.com", "https://cdn.example.com", true},
		{"http://localhost:8080/w", "http://localhost:8080/w", true},
		{"http://app.localhost/w", "http://app.localhost/w", true},
		{"http://[::1]:3000", "http://[::1]:3000", true},
		{"http://cdn.example.com/w", "", false},
		{"https://cdn.example.com/w?v=1", "", false},
		{"https://cdn.example.com/w#top", "", false},
		{"https://user@cdn.example.com/w", "", false},
		{"ftp://cdn.example.com/w", "", false},
		{"/widgets", "", false},
	} {
		got, err := Normalize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestOrigin(t *testing.T) {
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
		if got := Origin(tc.u); got != tc.want {
			t.Errorf("Origin(%q) = %q, want %q", tc.u, got, tc.want)
		}
	}
}

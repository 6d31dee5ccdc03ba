package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck writes a golden file with update, then checks it against the
// same and against other output on a real file.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.golden")
	Check(t, path, []byte("a\nb\n"), true)
	if data, err := os.ReadFile(path); err != nil || string(data) != "a\nb\n" {
		t.Fatalf("update wrote %q, %v", data, err)
	}
	Check(t, path, []byte("a\nb\n"), false)
	for _, tc := range []struct {
		name string
		got  string
	}{
		{"changed line", "a\nc\n"},
		{"missing file", ""},
	} {
		p := path
		if tc.name == "missing file" {
			p = filepath.Join(t.TempDir(), "none.golden")
		}
		inner := &testing.T{}
		done := make(chan struct{})
		go func() { defer close(done); Check(inner, p, []byte(tc.got), false) }()
		<-done
		if !inner.Failed() {
			t.Errorf("%s: Check passed", tc.name)
		}
	}
}

// TestFirstDifference names the first differing line, or the length.
func TestFirstDifference(t *testing.T) {
	for _, tc := range []struct{ got, want, says string }{
		{"a\nb\nc", "a\nx\nc", "line 2:\n got b\nwant x"},
		{"a\nb", "a\nb\nc", "the end: 2 lines, want 3"},
	} {
		if s := FirstDifference([]byte(tc.got), []byte(tc.want)); !strings.Contains(s, tc.says) {
			t.Errorf("FirstDifference(%q, %q) = %q, want it to say %q", tc.got, tc.want, s, tc.says)
		}
	}
}

package sourcemap

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	const js = `{"version":3,"sources":["a.ts","b.tsx"],"sourcesContent":["one\ntwo\n","x\r\n  y()\n"],` +
		`"mappings":"AAAA,IAAI;AACA,CCCG;;AAAA"}`
	m, err := Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line, col int
		want      Position
		ok        bool
		text      string
	}{
		{0, 0, Position{0, 0, 0}, true, "one"},
		{0, 3, Position{0, 0, 0}, true, "one"},
		{0, 4, Position{0, 0, 4}, true, "one"},
		{0, 99, Position{0, 0, 4}, true, "one"},
		{1, 0, Position{0, 1, 4}, true, "two"},
		{1, 1, Position{1, 2, 7}, true, ""},
		{2, 0, Position{}, false, ""},
		{3, 0, Position{1, 2, 7}, true, ""},
		{4, 0, Position{}, false, ""},
		{-1, 0, Position{}, false, ""},
	}
	for _, tt := range tests {
		got, ok := m.Lookup(tt.line, tt.col)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Lookup(%d, %d) = %+v, %v; want %+v, %v", tt.line, tt.col, got, ok, tt.want, tt.ok)
		}
	}
	if got := m.LineText(1, 1); got != "  y()" {
		t.Errorf("LineText(1, 1) = %q; want %q", got, "  y()")
	}
	if got := m.LineText(0, 1); got != "two" {
		t.Errorf("LineText(0, 1) = %q", got)
	}
	if got := m.LineText(0, 5); got != "" {
		t.Errorf("LineText past the end = %q", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ name, json, want string }{
		{"not json", `{`, "unexpected end"},
		{"version", `{"version":2,"sources":[],"mappings":""}`, "version 2"},
		{"bad char", `{"version":3,"sources":["a"],"mappings":"A!AA"}`, "invalid base64"},
		{"short segment", `{"version":3,"sources":["a"],"mappings":"AA"}`, "want 1, 4 or 5"},
		{"unfinished", `{"version":3,"sources":["a"],"mappings":"AAAg"}`, "ends inside"},
		{"source out of range", `{"version":3,"sources":["a"],"mappings":"ACAA"}`, "outside the sources"},
		{"huge", `{"version":3,"sources":["a"],"mappings":"gggggggggg"}`, "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.json))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Decode error = %v; want one containing %q", err, tt.want)
			}
		})
	}
}

func TestOffsetLineColumn(t *testing.T) {
	text := []byte("ab\nx😀y\n")
	tests := []struct{ line, col, off int }{
		{0, 0, 0}, {0, 2, 2}, {1, 0, 3}, {1, 1, 4}, {1, 3, 8}, {1, 4, 9}, {2, 0, 10},
	}
	for _, tt := range tests {
		off, ok := Offset(text, tt.line, tt.col)
		if !ok || off != tt.off {
			t.Errorf("Offset(%d, %d) = %d, %v; want %d", tt.line, tt.col, off, ok, tt.off)
		}
		if l, c := LineColumn(text, tt.off); l != tt.line || c != tt.col {
			t.Errorf("LineColumn(%d) = %d, %d; want %d, %d", tt.off, l, c, tt.line, tt.col)
		}
	}
	for _, bad := range [][2]int{{0, 3}, {3, 0}, {-1, 0}, {1, 5}} {
		if _, ok := Offset(text, bad[0], bad[1]); ok {
			t.Errorf("Offset(%d, %d) found a place", bad[0], bad[1])
		}
	}
}

// FuzzDecode feeds arbitrary mappings: Decode must never panic, and every
// Lookup of a decoded map must name a listed source at a non-negative place.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"AAAA,IAAI;AACA,CCCG;;AAAA", "A", ";;", "AAAAA", "gggggggggg", "+/+/", "AAAg"} {
		f.Add(s, 3, 2)
	}
	f.Fuzz(func(t *testing.T, mappings string, line, col int) {
		if len(mappings) > 4096 {
			return
		}
		js := `{"version":3,"sources":["a","b"],"sourcesContent":["x\ny",null],"mappings":` + quote(mappings) + `}`
		m, err := Decode([]byte(js))
		if err != nil {
			return
		}
		p, ok := m.Lookup(line, col)
		if ok && (p.Source < 0 || p.Source >= len(m.Sources) || p.Line < 0 || p.Column < 0) {
			t.Fatalf("Lookup(%d, %d) = %+v outside the sources", line, col, p)
		}
		_ = m.LineText(p.Source, p.Line)
		text := []byte(mappings)
		if off, ok := Offset(text, line, col); ok {
			if off < 0 || off > len(text) {
				t.Fatalf("Offset out of range: %d", off)
			}
		}
	})
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(" ")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

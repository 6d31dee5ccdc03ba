package contain

import (
	"strings"
	"testing"

	"github.com/widgetd/widgetd/diag"
)

// TestCheckCSSReads: what a stylesheet names for Tailwind or PostCSS to
// read, and the config files they are handed, are checked before the Node
// helper runs, and a refusal points at the reference.
func TestCheckCSSReads(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		configs []string // below top
		line    int      // 0: no position (a config), -1: allowed
		col     int
		length  int
	}{
		{"local", "@import \"./a.css\";\n@source \"../w\";\n", nil, -1, 0, 0},
		{"packages are esbuild's", "@import \"tailwindcss\";\n", nil, -1, 0, 0},
		{"import outside", "@import \"tailwindcss\";\n@import url( '../../../../secret/key.txt' );\n", nil, 2, 14, 26},
		{"plugin by absolute path", "@plugin \"{top}/secret/key.txt\";\n", nil, 1, 9, 0},
		{"config outside", "@import \"tailwindcss\";\n", []string{"", "secret/key.txt"}, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			src := strings.ReplaceAll(tc.src, "{top}", tr.top)
			var configs []string
			for _, c := range tc.configs {
				if c != "" {
					c = tr.path(c)
				}
				configs = append(configs, c)
			}
			r := tr.reader(t, nil, 0)
			m := r.CheckCSSReads(tr.path("ws/proj/widgets/w/app.css"), "widgets/w/app.css", []byte(src), configs...)
			if tc.line < 0 {
				if m != nil {
					t.Fatalf("refused: %+v", m)
				}
				return
			}
			if m == nil || m.PluginName != diag.CodeOutsideProject || m.Location == nil || m.Location.File != "widgets/w/app.css" {
				t.Fatalf("got %+v, want refused in widgets/w/app.css", m)
			}
			if l := m.Location; l.Line != tc.line || l.Column != tc.col || (tc.length > 0 && l.Length != tc.length) {
				t.Errorf("at %d:%d (length %d), want %d:%d (length %d)", l.Line, l.Column, l.Length, tc.line, tc.col, tc.length)
			}
		})
	}
}

// TestCheckCSSDependencies: a file the Node helper reports having read
// outside the project refuses the compile, naming it.
func TestCheckCSSDependencies(t *testing.T) {
	tr := newTree(t)
	r := tr.reader(t, nil, 0)
	inside := []string{"", "relative/ignored.css", tr.path("ws/proj/widgets/w/index.ts")}
	if m := r.CheckCSSDependencies("widgets/w/app.css", inside); m != nil {
		t.Fatalf("refused files inside: %+v", m)
	}
	m := r.CheckCSSDependencies("widgets/w/app.css", append(inside, tr.path("secret/key.txt")))
	if m == nil || m.PluginName != diag.CodeOutsideProject || !strings.HasPrefix(m.Text, "the stylesheet's compiler read "+tr.path("secret/key.txt")) || m.Location.File != "widgets/w/app.css" {
		t.Fatalf("got %+v, want the outside file refused", m)
	}
}

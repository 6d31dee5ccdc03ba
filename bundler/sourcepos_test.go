package bundler

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/sourcemap"
)

// boomTSX throws on line 6; the string is unique in the bundle.
const boomTSX = `type Props = { n: number };

function view(p: Props): string {
  const label: string = "n=" + p.n;
  if (p.n > 1) {
    throw new Error("boom at the source line");
  }
  return label;
}
document.body.textContent = view({ n: location.hash.length + 2 });
`

// TestSourcesLocate builds a TSX widget inline and external and traces a
// place in what the browser receives (the document or the JS file) back to
// the TSX line, with the line's text.
func TestSourcesLocate(t *testing.T) {
	tests := []struct {
		name, publicURL, widgetJSON string
		served                      func(out *Output, name string) []byte
	}{
		{"inline", "", `{"title": "Boom"}`, func(out *Output, name string) []byte {
			return out.Files[out.Manifest.Widgets[0].HTML]
		}},
		{"external", "https://cdn.example.com", `{"title": "Boom", "inline": false}`, func(out *Output, name string) []byte {
			for _, f := range out.Manifest.Widgets[0].Files {
				if strings.HasSuffix(f, ".js") {
					return out.Files[f]
				}
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"widgets/boom/widget.json": tt.widgetJSON, "widgets/boom/index.tsx": boomTSX})
			b, err := New(Options{Root: root, PublicURL: tt.publicURL})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			out, err := b.Assemble(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for p := range out.Files {
				if strings.HasSuffix(p, ".map") {
					t.Errorf("a source map reached the build's files: %s", p)
				}
			}
			text := tt.served(out, "boom")
			off := bytes.Index(text, []byte("boom at the source line"))
			if off < 0 {
				t.Fatalf("the message is not in the served text:\n%s", text)
			}
			line, col := sourcemap.LineColumn(text, off)
			d, ok := out.Sources.Locate("boom", text, line+1, col+1)
			if !ok {
				t.Fatalf("Locate(%d, %d) found nothing", line+1, col+1)
			}
			if want := filepath.Join("widgets", "boom", "index.tsx"); !strings.HasSuffix(d.File, want) || d.Line != 6 || d.Column < 5 {
				t.Errorf("Locate = %s:%d:%d; want …%s:6:(≥5)", d.File, d.Line, d.Column, want)
			}
			if !strings.Contains(d.Source, `throw new Error("boom at the source line");`) {
				t.Errorf("Source = %q; want the TSX line", d.Source)
			}
			if _, ok := out.Sources.LocateOffset("boom", text, len(text)+5); ok {
				t.Error("an offset past the text was located")
			}
			if _, ok := out.Sources.LocateOffset("other", text, off); ok {
				t.Error("a widget that does not exist was located")
			}
		})
	}
	var none *Sources
	if _, ok := none.Locate("boom", []byte("x"), 1, 1); ok {
		t.Error("nil Sources located something")
	}
}

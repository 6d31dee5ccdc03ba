package bundler

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// incrementalProject writes n widgets that share a module and a stylesheet;
// every widget has its own script, stylesheet and SVG image.
func incrementalProject(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"widgets/shared/util.ts":   "export function label(n: number): string { return `item ${n}`; }\n",
		"widgets/shared/base.css":  "body { margin: 0; font-family: system-ui; }\n",
		"widgets/shared/README.md": "shared code, not a widget\n",
		// An entry widget 0 switches to in one step.
		"widgets/w0/style-entry.ts": "import \"./style.css\";\n",
	}
	for i := 0; i < n; i++ {
		dir := fmt.Sprintf("widgets/w%d/", i)
		files[dir+"widget.json"] = fmt.Sprintf(`{"title": "Widget %d"}`, i)
		files[dir+"index.ts"] = fmt.Sprintf(`import { widget } from "widgetd";
import { label } from "../shared/util";
import "../shared/base.css";
import "./style.css";
import icon from "./icon.svg";
document.getElementById("root")!.innerHTML = "<img src=" + JSON.stringify(icon) + "><p>" + label(%d) + "</p>";
widget.onToolResult(() => console.log("widget %d"));
`, i, i)
		files[dir+"style.css"] = fmt.Sprintf(".w%d { color: hsl(%d 50%% 40%%); }\n", i, i*30)
		files[dir+"icon.svg"] = fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="%d"/></svg>`, i%4+1)
	}
	writeFiles(t, root, files)
	// Sources older than any build, as on a real checkout.
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	return root
}

// TestIncrementalMatchesFull edits a project through one long-lived Builder
// (as `widgetd dev` does) and checks after every edit that the output equals a
// fresh Builder's, byte for byte, and that one-widget edits rebuilt that
// widget alone.
func TestIncrementalMatchesFull(t *testing.T) {
	for _, publicURL := range []string{"", "https://cdn.example.com/w"} {
		t.Run(fmt.Sprintf("publicURL=%q", publicURL), func(t *testing.T) {
			root := incrementalProject(t, 8)
			opts := Options{Root: root, PublicURL: publicURL, NoCache: true}
			b, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			// The sources were written before the build (incrementalProject
			// dates them an hour back; each step's own file is rewritten
			// just before its build), so the test trusts any stamp older
			// than the build instead of waiting out the safety gap.
			b.stampGap = 0
			if _, err := b.Assemble(context.Background()); err != nil {
				t.Fatal(err)
			}
			w := func(rel, content string) func() {
				return func() { writeFiles(t, root, map[string]string{rel: content}) }
			}
			steps := []struct {
				name   string
				change func()
				single int // widgets rebuilt alone; -1 for a full bundle
			}{
				{"edit one script", w("widgets/w3/index.ts", "import \"./style.css\";\ndocument.body.append(\"edited w3\");\n"), 1},
				{"edit it again", w("widgets/w3/index.ts", "import \"./style.css\";\ndocument.body.append(\"edited w3 twice\");\n"), 1},
				// An editor's save truncates, then writes: a build may see
				// the script empty, and the next must see it back.
				{"empty one script", w("widgets/w3/index.ts", ""), 1},
				{"its content back", w("widgets/w3/index.ts", "import \"./style.css\";\ndocument.body.append(\"refilled w3\");\n"), 1},
				{"import a module without side effects", func() {
					w("widgets/w7/quiet.ts", "export const unused = 1;\n")()
					w("widgets/w7/index.ts", "import \"./quiet\";\ndocument.body.append(\"w7\");\n")()
				}, 1},
				{"that module gains a side effect", w("widgets/w7/quiet.ts", "document.body.append(\"no longer quiet\");\n"), 1},
				{"edit one stylesheet", w("widgets/w5/style.css", ".w5 { color: red; }\n"), 1},
				{"edit one image", w("widgets/w6/icon.svg", `<svg xmlns="http://www.w3.org/2000/svg"><rect width="3" height="3"/></svg>`), 1},
				{"atomic save (write and rename)", func() {
					p := filepath.Join(root, "widgets/w1/index.ts")
					tmp := p + ".tmp"
					if err := os.WriteFile(tmp, []byte("document.body.append(\"saved atomically\");\n"), 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.Rename(tmp, p); err != nil {
						t.Fatal(err)
					}
				}, 1},
				{"new file changes resolution", w("widgets/w2/style.css.ts", "export {};\n"), 1},
				{"edit the shared module", w("widgets/shared/util.ts", "export function label(n: number): string { return `#${n}`; }\n"), -1},
				{"nothing changed", func() {}, 0},
				{"tsconfig in the widgets folder", w("widgets/tsconfig.json", `{"compilerOptions": {"jsx": "react-jsx"}}`), -1},
				{"widget.json entry change", w("widgets/w0/widget.json", `{"title": "Widget 0", "entry": "style-entry.ts"}`+"\n"), 0},
			}
			for _, st := range steps {
				before := b.rebuilds
				esbBundles := b.bundles
				st.change()
				got, err := b.Assemble(context.Background())
				if err != nil {
					t.Fatalf("%s: %v", st.name, err)
				}
				single := int(b.rebuilds - before)
				if b.bundles != esbBundles {
					single = -1
				}
				if st.name == "widget.json entry change" {
					// The entry changed: that widget is rebuilt alone.
					st.single = 1
				}
				if single != st.single {
					t.Errorf("%s: rebuilt %d widget(s) alone (-1 = full bundle), want %d", st.name, single, st.single)
				}
				_, want := assembleOK(t, opts)
				compareOutputs(t, st.name, got, want)
			}
		})
	}
}

func compareOutputs(t *testing.T, step string, got, want *Output) {
	t.Helper()
	gm, _ := json.Marshal(got.Manifest)
	wm, _ := json.Marshal(want.Manifest)
	if !bytes.Equal(gm, wm) {
		t.Errorf("%s: manifest differs from a fresh build:\n got %s\nwant %s", step, gm, wm)
	}
	if len(got.Files) != len(want.Files) {
		t.Errorf("%s: %d files, fresh build %d", step, len(got.Files), len(want.Files))
	}
	for p, data := range want.Files {
		if !bytes.Equal(got.Files[p], data) {
			t.Errorf("%s: %s differs from a fresh build", step, p)
		}
	}
	// The merged metafile names the same outputs with the same inputs.
	var gmeta, wmeta metafile
	if err := json.Unmarshal([]byte(got.Metafile), &gmeta); err != nil {
		t.Fatalf("%s: metafile: %v", step, err)
	}
	json.Unmarshal([]byte(want.Metafile), &wmeta)
	for key, wo := range wmeta.Outputs {
		if !strings.HasSuffix(key, ".js") && !strings.HasSuffix(key, ".css") {
			continue
		}
		goOut, ok := gmeta.Outputs[key]
		if !ok {
			t.Errorf("%s: metafile lacks output %s", step, key)
			continue
		}
		if fmt.Sprint(goOut) != fmt.Sprint(wo) {
			t.Errorf("%s: metafile output %s differs", step, key)
		}
	}
}

// TestIncrementalSafetyGap checks that a file modified moments before a
// bundle is not trusted afterwards (it may still have been being written):
// the next bundle rebuilds its widget again, even with no visible change.
func TestIncrementalSafetyGap(t *testing.T) {
	root := incrementalProject(t, 8)
	b, err := New(Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	if _, err := b.Assemble(ctx); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"widgets/w4/index.ts": "document.body.append(\"w4\");\n"})
	for i, want := range []int64{1, 1} {
		before := b.rebuilds
		if _, err := b.Assemble(ctx); err != nil {
			t.Fatal(err)
		}
		if got := b.rebuilds - before; got != want {
			t.Errorf("bundle %d after the edit: rebuilt %d widget(s) alone, want %d", i+1, got, want)
		}
	}
}

// TestIncrementalSeesNamespacedInputs edits, between two bundles of one
// Builder, a file a widget reads through one of widgetd's own namespaces
// (an import suffix, new URL(…, import.meta.url), a worker's sources, a
// stylesheet bundled for ?inline) and checks that the widget reading it, and
// only that one, is rebuilt with the new content, as a fresh build makes it.
func TestIncrementalSeesNamespacedInputs(t *testing.T) {
	const publicURL = "https://cdn.example.com/w"
	cases := []struct {
		name      string
		publicURL string
		files     map[string]string // under widgets/
		edit      string            // the file edited, under widgets/
		readers   int               // the widgets reading it, rebuilt alone
		marker    string            // its new content holds this
	}{
		{"?raw", "", map[string]string{
			"w2/index.ts": "import note from \"./note.txt?raw\";\ndocument.body.append(note);\n",
			"w2/note.txt": "firstnote"}, "w2/note.txt", 1, "secondnote"},
		{"?url inline", "", map[string]string{
			"w2/index.ts": "import u from \"./note.txt?url\";\ndocument.body.append(u);\n",
			"w2/note.txt": "firstnote"}, "w2/note.txt", 1, "secondnote"},
		{"?url external", publicURL, map[string]string{
			"w2/index.ts": "import u from \"./note.txt?url\";\ndocument.body.append(u);\n",
			"w2/note.txt": "firstnote"}, "w2/note.txt", 1, "secondnote"},
		{"?inline image", "", map[string]string{
			"w2/index.ts": "import u from \"./dot.svg?inline\";\ndocument.body.append(u);\n",
			"w2/dot.svg":  `<svg xmlns="http://www.w3.org/2000/svg"><title>firstdot</title></svg>`}, "w2/dot.svg", 1, "seconddot"},
		{"?inline stylesheet's @import", "", map[string]string{
			"w2/index.ts":  "import css from \"./sheet.css?inline\";\ndocument.body.append(css);\n",
			"w2/sheet.css": "@import \"./part.css\";\n",
			"w2/part.css":  ".firstpart { color: red }\n"}, "w2/part.css", 1, "secondpart"},
		{"new URL(…, import.meta.url)", "", map[string]string{
			"w2/index.ts": "document.body.append(new URL(\"./note.txt\", import.meta.url).href);\n",
			"w2/note.txt": "firstnote"}, "w2/note.txt", 1, "secondnote"},
		{"?worker source", publicURL, map[string]string{
			"w2/index.ts": "import W from \"./work.ts?worker\";\nnew W();\n",
			"w2/work.ts":  "import { word } from \"./words\";\npostMessage(word);\n",
			"w2/words.ts": "export const word = \"firstword\";\n"}, "w2/words.ts", 1, "secondword"},
		{"new Worker(new URL(…)) source", publicURL, map[string]string{
			"w2/index.ts": "new Worker(new URL(\"./work.ts\", import.meta.url), { type: \"module\" });\n",
			"w2/work.ts":  "import { word } from \"./words\";\npostMessage(word);\n",
			"w2/words.ts": "export const word = \"firstword\";\n"}, "w2/words.ts", 1, "secondword"},
		{"?raw read by a worker", publicURL, map[string]string{
			"w2/index.ts": "import W from \"./work.ts?worker\";\nnew W();\n",
			"w2/work.ts":  "import note from \"./note.txt?raw\";\npostMessage(note);\n",
			"w2/note.txt": "firstnote"}, "w2/note.txt", 1, "secondnote"},
		{"?raw read by two widgets", "", map[string]string{
			"w2/index.ts":     "import note from \"../shared/note.txt?raw\";\ndocument.body.append(note);\n",
			"w3/index.ts":     "import note from \"../shared/note.txt?raw\";\ndocument.body.append(note, \"w3\");\n",
			"shared/note.txt": "firstnote"}, "shared/note.txt", 2, "secondnote"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := incrementalProject(t, 8)
			files := map[string]string{}
			for name, content := range tc.files {
				files["widgets/"+name] = content
			}
			writeFiles(t, root, files)
			opts := Options{Root: root, PublicURL: tc.publicURL, NoCache: true}
			b, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			b.stampGap = 0 // the sources predate the build (see TestIncrementalMatchesFull)
			ctx := context.Background()
			for i := 0; i < 2; i++ { // the second bundle stamps the inputs
				if _, err := b.Assemble(ctx); err != nil {
					t.Fatal(err)
				}
			}
			content := strings.ReplaceAll(tc.files[tc.edit], "first", "second")
			if !strings.Contains(content, tc.marker) {
				t.Fatalf("edit of %s does not hold %q", tc.edit, tc.marker)
			}
			writeFiles(t, root, map[string]string{"widgets/" + tc.edit: content})
			before, bundles := b.rebuilds, b.bundles
			got, err := b.Assemble(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n := b.rebuilds - before; n != int64(tc.readers) || b.bundles != bundles {
				t.Errorf("after editing widgets/%s: rebuilt %d widget(s) alone, %d full bundle(s); want %d alone (the widgets reading it), no full bundle", tc.edit, n, b.bundles-bundles, tc.readers)
			}
			if !outputHolds(got, tc.marker, content) {
				t.Errorf("no output holds the edited widgets/%s (%q): stale bundle", tc.edit, tc.marker)
			}
			_, fresh := assembleOK(t, opts)
			compareOutputs(t, "edit "+tc.edit, got, fresh)
			// Nothing changed since: no widget is rebuilt.
			before, bundles = b.rebuilds, b.bundles
			if _, err := b.Assemble(ctx); err != nil {
				t.Fatal(err)
			}
			if n := b.rebuilds - before; n != 0 || b.bundles != bundles {
				t.Errorf("with nothing changed: rebuilt %d widget(s) alone, %d full bundle(s); want none", n, b.bundles-bundles)
			}
		})
	}
}

// outputHolds reports whether an output file holds marker, or content as a
// base64 data URL.
func outputHolds(out *Output, marker, content string) bool {
	encoded := base64.StdEncoding.EncodeToString([]byte(content))
	for _, data := range out.Files {
		if bytes.Contains(data, []byte(marker)) || bytes.Contains(data, []byte(encoded)) {
			return true
		}
	}
	return false
}

package bundler

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/copytree"
	"github.com/widgetd/widgetd/internal/golden"
	"github.com/widgetd/widgetd/internal/testfiles"
)

var update = flag.Bool("update", false, "rewrite golden files")

// copyTree copies src (a folder of fixtures) into a new temp folder.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := copytree.Copy(src, dst, copytree.Options{Skip: copytree.SkipNamed("node_modules")}); err != nil {
		t.Fatal(err)
	}
	return dst
}

// writeFiles writes name→content files below root (internal/testfiles;
// the name stays for the many callers in this package).
func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	testfiles.Write(t, root, files)
}

// treeHash hashes every file name and content below dir (missing dir → "").
func treeHash(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, n)
		h.Write([]byte(rel + "\x00"))
		h.Write(data)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func readManifest(t testing.TB, dir string) *assets.Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, assets.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m assets.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

func widgetByName(m *assets.Manifest, name string) *assets.Widget {
	for i := range m.Widgets {
		if m.Widgets[i].Name == name {
			return &m.Widgets[i]
		}
	}
	return nil
}

func mustBuild(t testing.TB, opts Options) *Result {
	t.Helper()
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return res
}

// checkGolden compares got with testdata/golden/name, rewriting it under
// -update (internal/golden).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got, *update)
}

var (
	moduleScriptRE = regexp.MustCompile(`(?s)(<script type="module">)(.*?)(</script>)`)
	esbuildHashRE  = regexp.MustCompile(`-[A-Z0-9]{8}\.`)
)

// TestShells checks the inline and external documents against golden files.
// The bundled module script is replaced by a placeholder in the golden copy
// (it contains the whole bridge); its escaping is asserted separately.
func TestShells(t *testing.T) {
	for _, tc := range []struct {
		name      string
		publicURL string
	}{
		{"inline", ""},
		{"external", "https://cdn.example.com/widgets/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := copyTree(t, "testdata/shells")
			res := mustBuild(t, Options{Root: root, PublicURL: tc.publicURL, NoCompress: true})
			m := res.Manifest
			for _, w := range m.Widgets {
				doc, err := os.ReadFile(filepath.Join(res.OutDir, w.HTML))
				if err != nil {
					t.Fatal(err)
				}
				scripts := moduleScriptRE.FindAllSubmatch(doc, -1)
				if tc.publicURL == "" && len(scripts) != 1 {
					t.Fatalf("%s: want exactly one inline module script, got %d", w.Name, len(scripts))
				}
				for _, s := range scripts {
					js := s[2]
					if regexp.MustCompile(`(?i)</script`).Match(js) || bytes.Contains(js, []byte("<!--")) {
						t.Errorf("%s: inline script contains an unescaped </script or <!--", w.Name)
					}
				}
				if w.Name == "page" && tc.publicURL == "" {
					for _, want := range []string{`<\/script>`, `<\!-- x -->`, `<\/SCRIPT >`} {
						if !bytes.Contains(doc, []byte(want)) {
							t.Errorf("page: escaped hazard %q missing from the inline script", want)
						}
					}
					if !bytes.Contains(doc, []byte(`<\/style>`)) {
						t.Errorf("page: </style> in CSS content was not escaped")
					}
				}
				normal := moduleScriptRE.ReplaceAll(doc, []byte("${1}/* bundle */${3}"))
				normal = esbuildHashRE.ReplaceAll(normal, []byte("-HASH."))
				checkGolden(t, tc.name+"-"+w.Name+".html", normal)

				meta, err := json.MarshalIndent(map[string]any{"csp": w.CSP, "profiles": w.Profiles, "inline": w.Inline, "files": len(w.Files)}, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				meta = regexp.MustCompile(`\.[0-9a-f]{16}\.`).ReplaceAll(meta, []byte(".HASH."))
				checkGolden(t, tc.name+"-"+w.Name+".meta.json", append(meta, '\n'))
			}
		})
	}
}

// TestOneWidgetChangeChangesOneURI edits one widget and checks that only its
// hash and URIs change.
func TestOneWidgetChangeChangesOneURI(t *testing.T) {
	root := copyTree(t, "testdata/shells")
	for _, publicURL := range []string{"", "https://cdn.example.com"} {
		out := filepath.Join(t.TempDir(), "dist")
		before := mustBuild(t, Options{Root: root, OutDir: out, PublicURL: publicURL, NoCompress: true}).Manifest
		writeFiles(t, root, map[string]string{"widgets/script/style.css": "#root { font-weight: 300; }\n"})
		after := mustBuild(t, Options{Root: root, OutDir: out, PublicURL: publicURL, NoCompress: true}).Manifest
		if b, a := widgetByName(before, "script"), widgetByName(after, "script"); b.Hash == a.Hash || b.Profiles[0].URI == a.Profiles[0].URI {
			t.Errorf("public=%q: changed widget kept its hash %s", publicURL, a.Hash)
		}
		if b, a := widgetByName(before, "page"), widgetByName(after, "page"); b.Hash != a.Hash || b.Profiles[0].URI != a.Profiles[0].URI {
			t.Errorf("public=%q: unchanged widget changed hash %s → %s", publicURL, b.Hash, a.Hash)
		}
		// CSP-only change also changes the hash.
		writeFiles(t, root, map[string]string{"widgets/script/widget.json": `{ "title": "Script entry", "prefersBorder": false, "profiles": ["mcp-app"], "csp": {"connectDomains": ["https://x.example.com"]} }`})
		csp := mustBuild(t, Options{Root: root, OutDir: out, PublicURL: publicURL, NoCompress: true}).Manifest
		if widgetByName(csp, "script").Hash == widgetByName(after, "script").Hash {
			t.Errorf("public=%q: a CSP change did not change the hash", publicURL)
		}
		writeFiles(t, root, map[string]string{
			"widgets/script/style.css":   "#root { font-weight: bold; }\n",
			"widgets/script/widget.json": `{ "title": "Script entry", "prefersBorder": false, "profiles": ["mcp-app"] }`,
		})
	}
}

// TestDeterministic builds the same sources from two directories, with
// compression, and compares the outputs byte for byte.
func TestDeterministic(t *testing.T) {
	a := copyTree(t, "testdata/shells")
	b := copyTree(t, "testdata/shells")
	ra := mustBuild(t, Options{Root: a, PublicURL: "https://cdn.example.com"})
	rb := mustBuild(t, Options{Root: b, PublicURL: "https://cdn.example.com"})
	if ha, hb := treeHash(t, ra.OutDir), treeHash(t, rb.OutDir); ha != hb {
		t.Fatalf("builds differ: %s vs %s", ha, hb)
	}
	// A second build over the first changes nothing either; NoCache makes
	// it really build, taking compression from the previous dist/.
	before := treeHash(t, ra.OutDir)
	res := mustBuild(t, Options{Root: a, PublicURL: "https://cdn.example.com", NoCache: true})
	if after := treeHash(t, ra.OutDir); after != before {
		t.Fatalf("rebuilding the same sources changed dist/")
	}
	if res.Compressed != 0 || res.Reused == 0 {
		t.Errorf("rebuild compressed %d files and reused %d; want 0 compressed (cache from the previous dist/)", res.Compressed, res.Reused)
	}
}

// TestFailedBuildLeavesDistUntouched fails a build at the last moment (after
// every file is written, before the swap) and by a source error, and checks
// that the previous dist/ is unchanged and no temporary folder is left.
func TestFailedBuildLeavesDistUntouched(t *testing.T) {
	root := copyTree(t, "testdata/shells")
	res := mustBuild(t, Options{Root: root})
	before := treeHash(t, res.OutDir)

	writeFiles(t, root, map[string]string{"widgets/script/style.css": "#root { color: blue; }\n"})
	b, err := New(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	b.beforeSwap = func() error { return errors.New("injected failure before swap") }
	_, err = b.Build(context.Background())
	b.Close()
	if err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("want the injected failure, got %v", err)
	}
	if after := treeHash(t, res.OutDir); after != before {
		t.Fatal("dist/ changed after a failed build")
	}
	leftovers, _ := filepath.Glob(filepath.Join(root, ".dist.tmp-*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary folders left behind: %v", leftovers)
	}

	writeFiles(t, root, map[string]string{"widgets/script/index.ts": "const x = ;\n"})
	if _, err := Build(context.Background(), Options{Root: root}); err == nil {
		t.Fatal("want a syntax error")
	}
	if after := treeHash(t, res.OutDir); after != before {
		t.Fatal("dist/ changed after a failed build")
	}
}

// TestRetention keeps the hashed files of the last N builds and names them in
// the manifest.
func TestRetention(t *testing.T) {
	root := copyTree(t, "testdata/shells")
	opts := Options{Root: root, Retain: 3, NoCompress: true}
	var htmls []string
	for i := 0; i < 5; i++ {
		writeFiles(t, root, map[string]string{"widgets/script/style.css": "#root { z-index: " + string(rune('1'+i)) + "; }\n"})
		m := mustBuild(t, opts).Manifest
		htmls = append(htmls, widgetByName(m, "script").HTML)
	}
	m := readManifest(t, filepath.Join(root, "dist"))
	if len(m.Builds) != 3 {
		t.Fatalf("want 3 retained builds, got %d", len(m.Builds))
	}
	for i, h := range htmls {
		_, err := os.Stat(filepath.Join(root, "dist", h))
		if i < 2 && err == nil {
			t.Errorf("build %d's %s should have been dropped", i, h)
		}
		if i >= 2 && err != nil {
			t.Errorf("build %d's %s should have been kept: %v", i, h, err)
		}
	}
	// Every retained build names files that exist and are listed.
	listed := map[string]assets.File{}
	for _, f := range m.Files {
		listed[f.Path] = f
	}
	for _, bd := range m.Builds {
		for name, bw := range bd.Widgets {
			f, ok := listed[bw.HTML]
			if !ok {
				t.Errorf("build %s widget %s: %s not in files", bd.ID, name, bw.HTML)
				continue
			}
			if slices.Index(f.Builds, bd.ID) < 0 {
				t.Errorf("file %s does not list build %s", f.Path, bd.ID)
			}
		}
	}
	// The unchanged widget's single file is shared by every build.
	page := listed[widgetByName(m, "page").HTML]
	if len(page.Builds) != 3 {
		t.Errorf("unchanged widget's HTML should belong to 3 builds, got %v", page.Builds)
	}
}

// TestSyntaxErrorLocation checks that a TypeScript error is reported as
// file:line:col with the source line.
func TestSyntaxErrorLocation(t *testing.T) {
	root := copyTree(t, "testdata/shells")
	writeFiles(t, root, map[string]string{"widgets/script/index.ts": "import \"./style.css\";\nconst ok = 1;\nconst broken = (;\n"})
	_, err := Build(context.Background(), Options{Root: root})
	diags := diag.FromError(err)
	if len(diags) == 0 {
		t.Fatalf("want diagnostics, got %v", err)
	}
	d := diags[0]
	if !strings.HasSuffix(d.File, filepath.Join("widgets", "script", "index.ts")) || d.Line != 3 || d.Column != 17 {
		t.Errorf("got %s:%d:%d, want …/widgets/script/index.ts:3:17", d.File, d.Line, d.Column)
	}
	if !strings.Contains(d.String(), "const broken = (;") || !strings.Contains(d.String(), "^") {
		t.Errorf("diagnostic lacks the source line and caret:\n%s", d.String())
	}
}

func TestAssembleInMemory(t *testing.T) {
	root := copyTree(t, "testdata/shells")
	_, out := assembleOK(t, Options{Root: root, DevOrigin: "http://127.0.0.1:5173"})
	if _, err := os.Stat(filepath.Join(root, "dist")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Assemble wrote dist/")
	}
	for _, w := range out.Manifest.Widgets {
		if _, ok := out.Files[w.HTML]; !ok {
			t.Errorf("%s: HTML missing from Output.Files", w.Name)
		}
		if !strings.Contains(w.CSP, "connect-src 'self' http://127.0.0.1:5173") {
			t.Errorf("%s: dev origin not in connect-src: %s", w.Name, w.CSP)
		}
	}
	if !strings.Contains(out.Metafile, `"inputs"`) {
		t.Errorf("metafile missing")
	}
}

// TestReactHooksResolveFromWidget checks that widgetd/react finds react in the
// widget's own node_modules (no node_modules in the widgets folder).
func TestReactHooksResolveFromWidget(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"widgets/r/widget.json":                     `{}`,
		"widgets/r/index.tsx":                       "import { useToolOutput } from \"widgetd/react\";\nexport const marker = typeof useToolOutput;\nconsole.log(marker);\n",
		"widgets/r/node_modules/react/package.json": `{"name": "react", "main": "index.js"}`,
		"widgets/r/node_modules/react/index.js": "exports.useState = function(v){return [v, function(){}]}; exports.useEffect = function(){}; " +
			"exports.useCallback = function(f){return f}; exports.useMemo = function(f){return f()}; exports.useRef = function(v){return {current:v}}; " +
			"exports.useSyncExternalStore = function(s, g){return g()}; exports.marker = 'WIDGET-LOCAL-REACT';",
	})
	res := mustBuild(t, Options{Root: root, NoCompress: true})
	doc, err := os.ReadFile(filepath.Join(res.OutDir, res.Manifest.Widgets[0].HTML))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte("WIDGET-LOCAL-REACT")) {
		t.Errorf("the widget's own react was not bundled")
	}
}

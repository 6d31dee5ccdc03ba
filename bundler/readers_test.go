package bundler

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fileOpeners are the functions of package bundler and the packages under
// it allowed to call the os package's file readers directly, each with the
// reason, keyed by the file's path from bundler/ and the function's name. Everything else
// reads through bundler/internal/contain: Reader.ReadFile (sources),
// ReadBounded (files the build consults) or ReadConfigFile, all over
// internal/regularfile, which refuses FIFOs and devices and bounds what it
// reads. A reader added later that calls os.ReadFile fails this test.
var fileOpeners = map[string]string{
	"internal/distwrite/writeall.go:copyInto":  "copies a retained file of the previous dist/ (opened through regularfile.Open), hard-linking when it can",
	"internal/precompress/cache.go:load":       "reads widgetd's own compression cache (outside the project, written by widgetd)",
	"internal/distwrite/swap.go:SyncDir":       "opens a folder to fsync it",
	"internal/distwrite/swap_linux.go:LockOut": "creates and locks widgetd's own lock file",
}

// regularfileReaders are the functions allowed to call internal/regularfile's
// readers themselves rather than through bundler/internal/contain, each with
// the reason. Those readers refuse FIFOs and devices, but only contain words
// the refusal as a build limit and checks where the file is.
var regularfileReaders = map[string]string{
	"internal/contain/read.go:ReadRegular":             "the contained reader itself: every source and consulted file",
	"internal/contain/limits.go:ReadConfigFile":        "the contained reader of widget.json and widgetd.json",
	"internal/distwrite/writeall.go:copyInto":          "copies a retained file of the previous dist/, widgetd's own output",
	"dist.go:mismatch":                                 "reads a file of the previous dist/ (widgetd's own output) at the size its manifest recorded",
	"layout/layout.go:EntryFile":                       "devserver and check find a widget's entry without the build (bounded, regular files only)",
	"internal/uptodate/record.go:Save":                 "reads back the manifest.json this build just wrote into dist/, widgetd's own output",
	"internal/uptodate/record.go:Check":                "reads the record (widgetd's cache) and dist/manifest.json (widgetd's own output)",
	"internal/uptodate/record.go:sourcesUnchanged":     "hashes the inputs the last build read through contain, only to compare with their recorded sums",
	"internal/uptodate/buildid.go:goBuildID":           "reads widgetd's own executable for its Go build ID",
	"internal/uptodate/buildid.go:hashFile":            "hashes widgetd's own executable (bounded) when it has no build ID",
	"internal/npminstall/npminstall.go:Declared":       "reads package.json inside the project (within its root) only to word an install hint",
	"internal/npminstall/npminstall.go:PackageManager": "reads package.json files from the widget up to the project root only to name the package manager in a hint",
}

// TestEveryReaderIsListed parses the sources of the package and of those
// under it and fails on any call to os.ReadFile, os.Open or os.OpenFile
// outside fileOpeners, and on any call to regularfile.Read or
// regularfile.Open outside regularfileReaders.
func TestEveryReaderIsListed(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || d.Name() == "src") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				key := name + ":" + fn.Name.Name
				if pkg.Name == "regularfile" && (sel.Sel.Name == "Read" || sel.Sel.Name == "Open") {
					seen[key] = true
					if _, ok := regularfileReaders[key]; !ok {
						t.Errorf("%s: %s calls regularfile.%s; read through bundler/internal/contain, or list it in regularfileReaders with the reason", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
					}
					return true
				}
				if pkg.Name != "os" || !isOSReader(sel.Sel.Name) {
					return true
				}
				seen[key] = true
				if _, ok := fileOpeners[key]; !ok {
					t.Errorf("%s: %s calls os.%s; read sources through contain.Reader.ReadFile and other files through contain.ReadBounded, or list it in fileOpeners with the reason", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
	var stale []string
	for _, listed := range []map[string]string{fileOpeners, regularfileReaders} {
		for key := range listed {
			if !seen[key] {
				stale = append(stale, key)
			}
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("fileOpeners or regularfileReaders list functions that no longer read files: %v", stale)
	}
}

func isOSReader(name string) bool {
	switch name {
	case "ReadFile", "Open", "OpenFile":
		return true
	}
	return false
}

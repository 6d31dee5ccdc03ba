package bundler

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fileOpeners are the functions of package bundler allowed to call the os
// package's file readers directly, each with the reason. Everything else
// reads through containment.readFile (sources), readBounded (files the build
// consults) or readConfigFile, all over internal/regularfile, which refuses
// FIFOs and devices and bounds what it reads. A reader added later that calls os.ReadFile fails this test.
var fileOpeners = map[string]string{
	"dist.go:copyInto":      "copies a retained file of the previous dist/ (opened through regularfile.Open), hard-linking when it can",
	"compress.go:load":      "reads widgetd's own compression cache (outside the project, written by widgetd)",
	"swap.go:syncDir":       "opens a folder to fsync it",
	"swap_linux.go:lockOut": "creates and locks widgetd's own lock file",
}

// TestEveryReaderIsListed parses the package's sources and fails on any
// call to os.ReadFile, os.Open or os.OpenFile outside fileOpeners.
func TestEveryReaderIsListed(t *testing.T) {
	files, err := filepath.Glob("*.go")
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
				if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "os" || !isOSReader(sel.Sel.Name) {
					return true
				}
				key := name + ":" + fn.Name.Name
				seen[key] = true
				if _, ok := fileOpeners[key]; !ok {
					t.Errorf("%s: %s calls os.%s; read sources through containment.readFile and other files through readBounded, or list it in fileOpeners with the reason", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
	var stale []string
	for key := range fileOpeners {
		if !seen[key] {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("fileOpeners lists functions that no longer open files: %v", stale)
	}
}

func isOSReader(name string) bool {
	switch name {
	case "ReadFile", "Open", "OpenFile":
		return true
	}
	return false
}

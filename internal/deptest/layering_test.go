package deptest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// module is this module's path.
const module = "github.com/widgetd/widgetd"

// leafRoot is the import path of the top-level internal/ folder.
const leafRoot = module + "/internal"

// upwardAllowed lists the packages of the top-level internal/ that may still
// import a module package outside internal/, each with the reason. An entry
// whose package no longer imports upward (or no longer exists) fails the
// test, so the list only shrinks.
var upwardAllowed = map[string]string{}

// goosList are the platforms whose build tags the test lists the packages
// under (jscompile, for one, has per-OS files).
var goosList = []string{"linux", "darwin", "windows"}

// listedPackage is the part of go list -json the layering rule reads.
type listedPackage struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// TestInternalHoldsLeavesOnly: no package of the top-level internal/ imports
// (in its code or its tests) a package of this module outside internal/,
// on every platform in goosList, but for the entries of upwardAllowed.
func TestInternalHoldsLeavesOnly(t *testing.T) {
	for _, goos := range goosList {
		t.Run(goos, func(t *testing.T) {
			pkgs, err := listInternal(t.Context(), goos)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(pkgs, func(p listedPackage) bool { return p.ImportPath == leafRoot+"/atomicfile" }) {
				t.Fatalf("go list ./internal/... found %d packages, not internal/atomicfile: the test would check nothing", len(pkgs))
			}
			for _, v := range violations(pkgs, upwardAllowed) {
				t.Error(v)
			}
		})
	}
}

// listInternal runs go list on ./internal/... from the module root for goos.
func listInternal(ctx context.Context, goos string) ([]listedPackage, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", "./internal/...")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOOS="+goos)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("GOOS=%s go list ./internal/...: %w\n%s", goos, err, stderr.Bytes())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("GOOS=%s go list ./internal/...: decoding its JSON: %w", goos, err)
		}
		pkgs = append(pkgs, p)
	}
}

// violations returns, for each package of the top-level internal/ among
// pkgs, one line per import of a module package outside internal/, and one
// line per entry of allowed that no package needs any more.
func violations(pkgs []listedPackage, allowed map[string]string) []string {
	var out []string
	needed := map[string]bool{}
	for _, p := range pkgs {
		if !underLeafRoot(p.ImportPath) {
			continue
		}
		up := upward(p)
		if len(up) == 0 {
			continue
		}
		if _, ok := allowed[p.ImportPath]; ok {
			needed[p.ImportPath] = true
			continue
		}
		for _, imp := range up {
			out = append(out, fmt.Sprintf("%s imports %s: the top-level internal/ holds leaves only; move the package under its only user, or to a top-level package of its own when it has several (docs/architecture.md)", p.ImportPath, imp))
		}
	}
	for _, path := range sortedKeys(allowed) {
		if !needed[path] {
			out = append(out, fmt.Sprintf("%s is in upwardAllowed: it imports nothing outside internal/ any more (or is gone); remove the entry", path))
		}
	}
	return out
}

// upward returns p's imports (code, then tests) of module packages outside
// the top-level internal/, each once, in order, those of tests marked.
func upward(p listedPackage) []string {
	var out []string
	add := func(imports []string, where string) {
		for _, imp := range imports {
			if inModule(imp) && !underLeafRoot(imp) && !slices.Contains(out, imp) && !slices.Contains(out, imp+where) {
				out = append(out, imp+where)
			}
		}
	}
	add(p.Imports, "")
	add(p.TestImports, " (in its tests)")
	add(p.XTestImports, " (in its tests)")
	return out
}

// inModule reports whether path is a package of this module.
func inModule(path string) bool {
	return path == module || strings.HasPrefix(path, module+"/")
}

// underLeafRoot reports whether path is in the top-level internal/ folder.
func underLeafRoot(path string) bool {
	return path == leafRoot || strings.HasPrefix(path, leafRoot+"/")
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

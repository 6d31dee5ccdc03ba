package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/bundler/internal/contain"
	"github.com/widgetd/widgetd/bundler/strictjson"
	"github.com/widgetd/widgetd/diag"
)

// StyleRef is one entry of a "styles" list: the path as written, the file
// it names, and where the list names it (for messages).
type StyleRef struct {
	Spec  string // as written, relative to the config file's folder
	Named string // the path it names, absolute
	Path  string // its real path (esbuild's metafile names real paths)
	At    diag.Diagnostic
}

// ResolveStyleList checks a "styles" list of the config file doc, whose paths
// are relative to base: each must name an existing .css file, once.
// Containment is checked later (bundler's checkStyles), when the build knows what it
// may read.
func ResolveStyleList(doc *strictjson.Doc, base string, list []string) ([]StyleRef, error) {
	refs := make([]StyleRef, 0, len(list))
	seen := map[string]string{}
	for i, spec := range list {
		field := fmt.Sprintf("styles[%d]", i)
		switch {
		case strings.TrimSpace(spec) == "":
			return nil, doc.ErrPath(field, "%s is empty; give a stylesheet's path relative to this file's folder, e.g. \"styles.css\" or \"../index.css\"", field)
		case filepath.IsAbs(spec) || strings.HasPrefix(spec, "/") || strings.Contains(spec, "\\"):
			return nil, doc.ErrPath(field, "%s %q must be a path relative to this file's folder, with forward slashes, e.g. \"../index.css\"", field, spec)
		case !strings.EqualFold(filepath.Ext(spec), ".css"):
			return nil, doc.ErrPath(field, "%s %q is not a .css file; \"styles\" lists stylesheets (import scripts from the entry)", field, spec)
		}
		p := filepath.Join(base, filepath.FromSlash(spec))
		st, err := os.Stat(p)
		switch {
		case err != nil:
			return nil, doc.ErrPath(field, "%s %q: %v (paths are relative to the folder of %s: %s)", field, spec, contain.PathErrCause(err), filepath.Base(doc.File), base)
		case st.IsDir():
			return nil, doc.ErrPath(field, "%s %q is a folder; list the stylesheets in it one by one", field, spec)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, doc.ErrPath(field, "%s %q: %v", field, spec, contain.PathErrCause(err))
		}
		if prev, dup := seen[real]; dup {
			return nil, doc.ErrPath(field, "%s %q names the same file as %s; list each stylesheet once", field, spec, prev)
		}
		seen[real] = field
		refs = append(refs, StyleRef{Spec: spec, Named: p, Path: real, At: doc.ErrPath(field, "").Diagnostics[0]})
	}
	return refs, nil
}

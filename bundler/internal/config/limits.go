package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/bundler/internal/contain"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/bundler/strictjson"
)

// The validation of the widgetd.json fields that set the build's limits;
// the limits themselves (a code per kind of refusal, the source and config
// size guards) are bundler/internal/contain's.

// DefaultHTMLBudget is the per-widget HTML size budget (1 MiB) unless
// widgetd.json "htmlBudget" says otherwise. Some hosts cap an app's HTML at
// 1 MiB, and an inline document travels whole, inside JSON, in every
// resources/read answer.
const DefaultHTMLBudget = 1 << 20

// checkLimits validates the project file's allowOutside, maxSourceSize and
// htmlBudget.
func checkLimits(doc *strictjson.Doc, dir string, pc *Project) error {
	for i, o := range pc.AllowOutside {
		field := fmt.Sprintf("allowOutside[%d]", i)
		if o == "" {
			return doc.ErrPath(field, "allowOutside entries are folders, relative to %s; this one is empty", layout.ProjectConfigFile)
		}
		p := o
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(o))
		}
		st, err := os.Stat(p)
		if err != nil {
			return doc.ErrPath(field, "allowOutside %q: %v", o, contain.PathErrCause(err))
		}
		if !st.IsDir() {
			return doc.ErrPath(field, "allowOutside %q is a file; name the folder that holds it", o)
		}
	}
	if pc.MaxSourceSize < 0 {
		return doc.ErrPath("maxSourceSize", "maxSourceSize must be a positive number of bytes (default %d, 50 MiB)", contain.DefaultMaxSourceSize)
	}
	if pc.HTMLBudget < 0 {
		return doc.ErrPath("htmlBudget", "htmlBudget must be a positive number of bytes (default %d, 1 MiB)", DefaultHTMLBudget)
	}
	return nil
}

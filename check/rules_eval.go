package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/widgetd/widgetd/assets/audit"
)

// evalRules reports code compiled from strings at run time (eval, new
// Function, ...), which the spec CSP blocks, naming the modules that brought
// it in when the esbuild metafile knows them.
func (c *widgetCheck) evalRules(files []scanned) {
	var mods []string
	attributed := false
	for _, f := range files {
		if len(f.res.Evals) == 0 {
			continue
		}
		if !attributed {
			mods, attributed = evalModules(c.in.Metafile, c.in.Root, c.w.Name), true
		}
		e := f.res.Evals[0]
		from := "an unknown module (a dist/ keeps no esbuild metafile; check from sources to name it)"
		if c.in.Metafile != "" {
			from = "an unknown module"
		}
		if len(mods) > 0 {
			from = strings.Join(mods, ", ")
		}
		extra := ""
		if n := len(f.res.Evals) - 1; n > 0 {
			extra = fmt.Sprintf(" (and %d more in this file)", n)
		}
		c.add(RuleJSEval, audit.Error, f.path, e.Offset, "avoid the construct or the package that uses it (zod: use jitless mode); hosts do not allow 'unsafe-eval'",
			"%s compiles code from a string at run time, which the spec CSP (no 'unsafe-eval') blocks; brought in by %s%s", e.Via, from, extra)
	}
}

// evalModules names the modules of widget name's bundle whose own source
// uses eval, from esbuild's metafile.
func evalModules(metafile, root, name string) []string {
	if metafile == "" {
		return nil
	}
	inputs, err := metafileInputs(metafile, name)
	if err != nil {
		return nil
	}
	var out []string
	for _, in := range inputs {
		data, err := readInput(root, in)
		if err != nil {
			continue
		}
		if len(scanJS(data).Evals) > 0 {
			out = append(out, in)
		}
	}
	sort.Strings(out)
	return out
}

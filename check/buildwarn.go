package check

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/diag"
)

// undeclaredRules are the rules `widgetd build` repeats as warnings: a load
// from an origin the widget's csp does not declare.
var undeclaredRules = map[string]bool{
	RuleCSPUndeclaredConnect:  true,
	RuleCSPUndeclaredResource: true,
	RuleCSPUndeclaredFrame:    true,
	RuleCSPUndeclaredBaseURI:  true,
}

// ForBuild loads the dist/ that b's build res just wrote (verified as a
// server would), with what UndeclaredLoads needs to point at the sources:
// the project root, the widgets' folders and, when the build ran rather than
// found dist/ up to date, esbuild's metafile.
func ForBuild(b *bundler.Builder, res *bundler.Result) (*Input, error) {
	in, err := LoadDist(res.OutDir)
	if err != nil {
		return nil, err
	}
	in.Root, in.Metafile = b.Root(), res.Metafile
	in.setSourceDirs(b.WidgetsDir(), nil)
	return in, nil
}

// UndeclaredLoads returns a warning for each URL a widget of in loads from
// an origin its csp does not declare (the csp-undeclared-* rules of
// `widgetd check`, which reports them as errors), at the source
// file:line:col where the URL was written when in knows the sources, else
// at the byte offset in the built file. `widgetd build` prints them, so a
// fetch the host would block is seen at build time, not only at run time.
func UndeclaredLoads(ctx context.Context, in *Input) ([]diag.Diagnostic, error) {
	var out []diag.Diagnostic
	for i := range in.Manifest.Widgets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := &widgetCheck{in: in, w: &in.Manifest.Widgets[i], files: map[string]assets.File{}}
		pol := c.metaRules()
		files, ok := c.scanFiles()
		if pol == nil || !ok {
			continue
		}
		c.out, c.srcPos = nil, nil
		c.urlRules(pol, files)
		for j, f := range c.out {
			if !undeclaredRules[f.Rule] {
				continue
			}
			d := diag.Diagnostic{File: filepath.ToSlash(f.File), Warning: true, Code: f.Rule,
				Message: fmt.Sprintf("widget %q: %s; %s (widgetd check reports this as %s)", c.w.Name, f.Message, f.Fix, f.Rule)}
			if p, ok := c.srcPos[j]; ok {
				d.File, d.Line, d.Column, d.Source = p.file, p.line, p.col, p.text
			} else if f.Offset >= 0 {
				d.Message += fmt.Sprintf(" [at byte %d of the built file]", f.Offset)
			}
			out = append(out, d)
		}
	}
	return out, nil
}

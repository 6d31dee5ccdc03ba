package bundler

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/diag"
)

// The Node helper (Tailwind, PostCSS) reads files on its own: a
// stylesheet's @import, @config, @plugin, @reference and @source, and the
// config files it is handed. It cannot go through readFile, so the build
// checks what it will be asked to read before asking (the config files and
// every local path the stylesheet names), and, after it ran, every file it
// reports having read, so nothing it read from outside the project, or from
// a FIFO or device, reaches dist/.

// cssFileRefRE finds the local files a stylesheet names for Tailwind or
// PostCSS to read: @import/@config/@plugin/@reference/@source "./x" (or
// url("./x")), relative or absolute paths only (bare names are packages).
var cssFileRefRE = regexp.MustCompile(`@(?:import|config|plugin|reference|source)\s+(?:url\(\s*)?["']((?:\.{1,2}/|/)[^"'\n]*)["']`)

// checkCSSReads refuses a compile whose config files or the stylesheet's own
// references name what a build may not read, at the reference.
func (c *compilers) checkCSSReads(file string, src []byte, configs ...string) *api.Message {
	for _, cfg := range configs {
		if cfg == "" {
			continue
		}
		if err := c.b.contain.check(filepath.Base(cfg), cfg, ""); err != nil {
			m := limitMessage(err)
			m.Location = &api.Location{File: c.b.relPath(file)}
			return &m
		}
	}
	for _, loc := range cssFileRefRE.FindAllSubmatchIndex(src, -1) {
		spec := string(src[loc[2]:loc[3]])
		p := filepath.FromSlash(spec)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(file), p)
		}
		if err := c.b.contain.check(spec, p, ""); err != nil {
			line, col, text := diag.LineCol(src, loc[2])
			m := limitMessage(err)
			m.Location = &api.Location{File: c.b.relPath(file), Line: line, Column: col - 1, LineText: text, Length: loc[3] - loc[2]}
			return &m
		}
	}
	return nil
}

// checkCSSDependencies refuses a compile after which the Node helper reports
// having read a file a build may not read (an @import inside an imported
// stylesheet, a package reached through a link).
func (c *compilers) checkCSSDependencies(file string, deps []string) *api.Message {
	for _, dep := range deps {
		if dep == "" || strings.ContainsRune(dep, 0) || !filepath.IsAbs(dep) {
			continue
		}
		if err := c.b.contain.check("", dep, ""); err != nil {
			m := limitMessage(fmt.Errorf("the stylesheet's compiler read %s: %w", dep, err))
			m.Location = &api.Location{File: c.b.relPath(file)}
			return &m
		}
	}
	return nil
}

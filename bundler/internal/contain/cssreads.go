package contain

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
// config files it is handed. It cannot go through ReadFile, so the build
// checks what it will be asked to read before asking (the config files and
// every local path the stylesheet names), and, after it ran, every file it
// reports having read, so nothing it read from outside the project, or from
// a FIFO or device, reaches dist/.

// cssFileRefRE finds the local files a stylesheet names for Tailwind or
// PostCSS to read: @import/@config/@plugin/@reference/@source "./x" (or
// url("./x")), relative or absolute paths only (bare names are packages).
var cssFileRefRE = regexp.MustCompile(`@(?:import|config|plugin|reference|source)\s+(?:url\(\s*)?["']((?:\.{1,2}/|/)[^"'\n]*)["']`)

// CheckCSSReads refuses a compile of the stylesheet file (shown as
// messages name it) whose config files or own references name what a
// build may not read, at the reference.
func (c *Reader) CheckCSSReads(file, shown string, src []byte, configs ...string) *api.Message {
	for _, cfg := range configs {
		if cfg == "" {
			continue
		}
		if err := c.Check(filepath.Base(cfg), cfg, ""); err != nil {
			m := Message(err)
			m.Location = &api.Location{File: shown}
			return &m
		}
	}
	for _, loc := range cssFileRefRE.FindAllSubmatchIndex(src, -1) {
		spec := string(src[loc[2]:loc[3]])
		p := filepath.FromSlash(spec)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(file), p)
		}
		if err := c.Check(spec, p, ""); err != nil {
			line, col, text := diag.LineCol(src, loc[2])
			m := Message(err)
			m.Location = &api.Location{File: shown, Line: line, Column: col - 1, LineText: text, Length: loc[3] - loc[2]}
			return &m
		}
	}
	return nil
}

// CheckCSSDependencies refuses a compile of the stylesheet shown after
// which the Node helper reports having read a file a build may not read
// (an @import inside an imported stylesheet, a package reached through a
// link).
func (c *Reader) CheckCSSDependencies(shown string, deps []string) *api.Message {
	for _, dep := range deps {
		if dep == "" || strings.ContainsRune(dep, 0) || !filepath.IsAbs(dep) {
			continue
		}
		if err := c.Check("", dep, ""); err != nil {
			m := Message(fmt.Errorf("the stylesheet's compiler read %s: %w", dep, err))
			m.Location = &api.Location{File: shown}
			return &m
		}
	}
	return nil
}

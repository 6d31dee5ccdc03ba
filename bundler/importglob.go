package bundler

import (
	"sort"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/importglob"
	"github.com/widgetd/widgetd/diag"
)

// globFolders are the folders import.meta.glob calls walked, so the
// up-to-date record notices a file added to one of them (the match set
// changes although no input did). Calls run in esbuild's goroutines. The
// set only grows: a Builder that bundles only its changed widgets does not
// walk the others' globs again, and a folder recorded after its glob is
// gone costs at most one build more.
type globFolders struct {
	mu   sync.Mutex
	dirs map[string]bool
}

func (g *globFolders) add(dirs []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.dirs == nil {
		g.dirs = map[string]bool{}
	}
	for _, d := range dirs {
		g.dirs[d] = true
	}
}

// list returns the folders, sorted.
func (g *globFolders) list() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]string, 0, len(g.dirs))
	for d := range g.dirs {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// expandImportGlobs replaces the import.meta.glob calls of the project
// module file (text src) with the objects Vite makes of them
// (importglob). It returns the new text and whether there was a call, or
// the errors at the calls it could not expand (arguments that are not
// literals, a pattern outside the project, too many files), and the
// folders it walked.
func (b *Builder) expandImportGlobs(file, src string) (string, bool, []api.Message, []string) {
	calls, errs := importglob.Find(src)
	var msgs []api.Message
	for _, e := range errs {
		msgs = append(msgs, api.Message{Text: e.Msg, Location: locationAt(file, src, e.Offset, 0)})
	}
	matches := make([][]importglob.Match, len(calls))
	var walked []string
	for i, c := range calls {
		m, dirs, err := importglob.Expand(c, file, b.root)
		if err != nil {
			msgs = append(msgs, api.Message{Text: err.Error(), Location: locationAt(file, src, c.Start, c.End-c.Start)})
			continue
		}
		matches[i] = m
		walked = append(walked, dirs...)
	}
	b.globDirs.add(walked)
	if len(msgs) > 0 || len(calls) == 0 {
		return src, false, msgs, walked
	}
	return importglob.Rewrite(src, calls, matches), true, nil, walked
}

// locationAt is the place in file's text src of length bytes from byte
// offset at, for an esbuild message.
func locationAt(file, src string, at, length int) *api.Location {
	line, col, lineText := diag.LineCol([]byte(src), at)
	return &api.Location{File: file, Line: line, Column: col - 1, LineText: lineText, Length: length}
}

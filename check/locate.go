package check

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// Locating a load in the sources. The rules scan what the host receives
// (the bundle), since only that shows what provably loads; an author edits
// the sources, so a finding checked from sources names the line and column
// where the URL was written. The same scanners run over each source file of
// the widget: the first load there of the same URL through the same
// directive is the place. Failing that, the first quoted occurrence of the
// URL (or of its origin) is; failing that, the finding keeps its offset in
// the built file.

// Limits on what the locator reads: a widget folder is walked only this
// deep and this wide, and larger files are skipped.
const (
	maxLocateFiles    = 2000
	maxLocateFileSize = 8 << 20
)

// sourceExts are the files worth looking in, by how they are scanned.
var sourceExts = map[string]func([]byte) scanResult{
	".js": scanJS, ".mjs": scanJS, ".cjs": scanJS, ".jsx": scanJS,
	".ts": scanJS, ".mts": scanJS, ".cts": scanJS, ".tsx": scanJS,
	".css": scanCSS, ".html": scanHTMLResult, ".htm": scanHTMLResult,
	".vue": scanHTMLResult, ".svelte": scanHTMLResult,
	".scss": nil, ".sass": nil, ".less": nil, ".json": nil,
}

// sourceFile is one source file the locator looks in.
type sourceFile struct {
	shown string // as messages show it
	data  []byte
	res   *scanResult // scanned on first use; nil for text-only files
	scan  func([]byte) scanResult
}

// sourcePos is a place in a source file.
type sourcePos struct {
	file      string
	line, col int
	text      string // the line, for a caret
}

// String is "file:line:col".
func (p sourcePos) String() string {
	d := diag.Diagnostic{File: p.file, Line: p.line, Column: p.col}
	return d.Location()
}

// sourceLocator finds where in a widget's sources a URL was written.
type sourceLocator struct {
	files []*sourceFile
}

// newSourceLocator reads the widget's sources: the files esbuild's metafile
// says make up its bundle, then the files of its folder (the HTML entry is
// not an esbuild input). It returns nil when neither is known (a dist/).
func (c *widgetCheck) newSourceLocator() *sourceLocator {
	dir := c.in.SourceDirs[c.w.Name]
	if dir == "" && c.in.Metafile == "" {
		return nil
	}
	show := displaypath.WorkingDir()
	l := &sourceLocator{}
	seen := map[string]bool{}
	addFile := func(p string) {
		ext := strings.ToLower(filepath.Ext(p))
		scan, ok := sourceExts[ext]
		if !ok || seen[p] || len(l.files) >= maxLocateFiles {
			return
		}
		seen[p] = true
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() > maxLocateFileSize {
			return
		}
		if data, err := os.ReadFile(p); err == nil {
			l.files = append(l.files, &sourceFile{shown: filepath.ToSlash(show.Show(p)), data: data, scan: scan})
		}
	}
	if c.in.Metafile != "" && c.in.Root != "" {
		inputs, _ := metafileInputs(c.in.Metafile, c.w.Name)
		for _, in := range inputs {
			if filepath.IsLocal(filepath.FromSlash(in)) {
				addFile(filepath.Join(c.in.Root, filepath.FromSlash(in)))
			}
		}
	}
	if dir != "" {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(l.files) >= maxLocateFiles {
				return filepath.SkipDir
			}
			if d.IsDir() && p != dir && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				addFile(p)
			}
			return nil
		})
	}
	return l
}

// find returns where r's URL was written, or false.
func (l *sourceLocator) find(r urlRef) (sourcePos, bool) {
	if l == nil {
		return sourcePos{}, false
	}
	for _, f := range l.files {
		if f.scan == nil {
			continue
		}
		if f.res == nil {
			res := f.scan(f.data)
			f.res = &res
		}
		for _, sr := range f.res.Refs {
			if sr.URL == r.URL && sr.Directive == r.Directive {
				return f.at(sr.Offset), true
			}
		}
	}
	needles := []string{r.URL}
	if o, err := cspgen.OriginOf(r.URL); err == nil && o != r.URL {
		needles = append(needles, o)
	}
	for _, n := range needles {
		for _, f := range l.files {
			if off := quotedIndex(f.data, n); off >= 0 {
				return f.at(off), true
			}
		}
	}
	return sourcePos{}, false
}

// at is the position of byte offset off in f.
func (f *sourceFile) at(off int) sourcePos {
	d := diag.At(f.shown, f.data, off)
	return sourcePos{file: d.File, line: d.Line, col: d.Column, text: d.Source}
}

// quotedIndex returns the offset of the first occurrence of s in data that
// starts a string, template, url() or attribute value, or -1.
func quotedIndex(data []byte, s string) int {
	for from := 0; from < len(data); {
		i := bytes.Index(data[from:], []byte(s))
		if i < 0 {
			return -1
		}
		at := from + i
		if at > 0 && strings.IndexByte("\"'`(=", data[at-1]) >= 0 {
			return at
		}
		from = at + 1
	}
	return -1
}

// traceToSources moves the findings still placed by a byte offset in a
// built file (the widget's document or a script it loads) to the source
// file, line and column the build's source maps name, with the source
// line; a finding the maps do not cover keeps its offset.
func (c *widgetCheck) traceToSources() {
	if c.in.Sources == nil {
		return
	}
	for i := range c.out {
		f := &c.out[i]
		if f.File == "" || f.Offset < 0 {
			continue
		}
		data, ok := c.in.Files[f.File]
		if !ok {
			continue
		}
		d, ok := c.in.Sources.LocateOffset(c.w.Name, data, f.Offset)
		if !ok {
			continue
		}
		f.File, f.Offset, f.Source = filepath.ToSlash(d.Location()), -1, d.Source
		if c.srcPos == nil {
			c.srcPos = map[int]sourcePos{}
		}
		c.srcPos[i] = sourcePos{file: d.File, line: d.Line, col: d.Column, text: d.Source}
	}
}

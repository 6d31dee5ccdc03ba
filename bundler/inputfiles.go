package bundler

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// What a bundle read. esbuild's metafile names every module a bundle holds,
// but a module in one of widgetd's namespaces is named by that namespace's
// path, not by the file it was loaded from, and a module made by a nested
// build (a worker, a stylesheet bundled for ?inline) stands for every file
// that build read. A long-lived Builder stamps the files behind each module
// to tell which widgets an edit changes (rememberBundle), and a one-shot
// build records them for its up-to-date check (saveRecord); both map the
// metafile through moduleFile, so a namespace added to one cannot be
// forgotten by the other.

// moduleFile maps a metafile input key to the file the module was loaded
// from: a plain path (relative to the project root, esbuild's working
// folder), or the file behind a ?raw, ?url, ?inline or ?worker module or a
// component's extracted stylesheet (root-relative paths, see nspath.go). It
// returns "" for virtual modules (the entries, the bridge, defines, inline
// scripts, whose HTML the entry covers). nested is true for a module made by
// a nested build, whose other inputs the key cannot tell (nestedReads has
// them).
func moduleFile(root, key string) (file string, nested bool) {
	ns, p, found := strings.Cut(key, ":")
	switch {
	case strings.HasPrefix(key, "<"):
		return "", false
	case !found || strings.ContainsAny(ns, `/\.`):
		return filepath.Join(root, filepath.FromSlash(key)), false
	case ns == workerFileNamespace:
		return "", true // p names the worker's output; its source is among the nested reads
	case ns == inlineNamespace:
		return rootFile(root, p), strings.EqualFold(filepath.Ext(p), ".css")
	case slices.Contains(rootRelNamespaces, ns):
		// One list (nspath.go) names the root-relative namespaces, for
		// messages and for this mapping alike.
		return rootFile(root, p), false
	}
	return "", false
}

// nestedReads remembers, for each module a nested build made, the files that
// build read. Plugins record them while esbuild runs, from several
// goroutines at once.
type nestedReads struct {
	mu    sync.Mutex
	files map[string][]string // metafile input key → files
}

// record stores the files the nested build behind key read.
func (n *nestedReads) record(key string, files []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.files == nil {
		n.files = map[string][]string{}
	}
	n.files[key] = slices.Clone(files)
}

// lookup returns the files recorded for key.
func (n *nestedReads) lookup(key string) ([]string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	files, ok := n.files[key]
	return files, ok
}

// readFiles returns every file the module behind a metafile input key was
// read from: its own file and, for a module a nested build made, every file
// that build read. ok is false when they are not known (a nested build not
// seen by this Builder).
func (b *Builder) readFiles(key string) (files []string, ok bool) {
	file, nested := moduleFile(b.root, key)
	if file != "" {
		files = append(files, file)
	}
	if !nested {
		return files, true
	}
	reads, ok := b.nestedReads.lookup(key)
	return append(files, reads...), ok
}

// metafileReads lists every file an esbuild metafile's inputs were read
// from, sorted, without repeats; ok is false when some are not known.
func (b *Builder) metafileReads(meta string) (files []string, ok bool) {
	var m metafile
	if json.Unmarshal([]byte(metafileOrEmpty(meta)), &m) != nil {
		return nil, false
	}
	ok = true
	for key := range m.Inputs {
		f, known := b.readFiles(key)
		files = append(files, f...)
		ok = ok && known
	}
	slices.Sort(files)
	return slices.Compact(files), ok
}

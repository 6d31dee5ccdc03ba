package bundler

import (
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Paths in widgetd's own esbuild namespaces are relative to the project
// root, with forward slashes, never absolute. esbuild mixes every bundled
// module's namespace and path into the hash in a JS file's name; for the
// "file" namespace it takes the path relative to the working directory, but
// a plugin namespace's path goes in verbatim. An absolute path there would
// give the same sources different file names in two checkouts, and replicas
// built separately would disagree on every hash that names them.

// rootRelNamespaces are the namespaces whose paths are root-relative files
// (b.relPath); rootFile turns one back into the file.
var rootRelNamespaces = []string{compiledStyleNamespace, rawNamespace, urlNamespace, inlineNamespace, workerNamespace, workerFileNamespace}

// rootFile is the file a root-relative path names: relPath undone.
func rootFile(root, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(root, p)
}

// absLocation returns m with a location in a root-relative namespace named
// by the absolute file, as esbuild named it before the paths were relative,
// so that messages keep their words.
func (b *Builder) absLocation(m api.Message) api.Message {
	if m.Location == nil {
		return m
	}
	m.Location = b.absLoc(m.Location)
	return m
}

// absLoc is absLocation for one location (nil stays nil).
func (b *Builder) absLoc(loc *api.Location) *api.Location {
	if loc == nil {
		return nil
	}
	for _, ns := range rootRelNamespaces {
		// esbuild leaves Namespace empty in some locations (an import
		// that does not resolve); the file's prefix still names it.
		rel, ok := strings.CutPrefix(loc.File, ns+":")
		if !ok || (loc.Namespace != ns && loc.Namespace != "") {
			continue
		}
		abs := *loc
		abs.File = ns + ":" + rootFile(b.root, rel)
		return &abs
	}
	return loc
}

// absLocations is absLocation for each message.
func (b *Builder) absLocations(ms []api.Message) []api.Message {
	out := make([]api.Message, len(ms))
	for i, m := range ms {
		out[i] = b.absLocation(m)
	}
	return out
}

// inPackage reports whether file lies in a node_modules folder: a
// dependency's module, which widgetd neither compiles as the project's own
// code nor watches, and may rewrite for tree shaking.
func inPackage(file string) bool {
	return strings.Contains(file, string(filepath.Separator)+"node_modules"+string(filepath.Separator))
}

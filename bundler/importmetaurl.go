package bundler

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/importglob"
	"github.com/widgetd/widgetd/bundler/internal/jstransform"
)

// importMetaURLRE finds new URL("./relative", import.meta.url), optionally
// as the first argument of new Worker(…) / new SharedWorker(…), also when
// reached through a global object (new self.Worker(…), globalThis, window).
var importMetaURLRE = regexp.MustCompile(`(new\s+(?:(?:self|globalThis|window)\s*\.\s*)?(?:Shared)?Worker\(\s*)?new\s+URL\(\s*(['"])(\.{1,2}/[^'"\n]+)['"]\s*,\s*import\.meta\.url\s*\)`)

// setupImportMetaURL rewrites the project's own modules where they ask the
// build for files: import.meta.glob(…) calls become the objects Vite makes
// of them (importglob.go), and new URL("./file", import.meta.url) becomes
// an import of "./file?url" (a worker's script "./file?worker&url"), so the
// file is emitted and the URL points at it. Imports the rewrites add are
// appended at the end of the module (imports are hoisted), so line numbers
// in messages stay true.
func (b *Builder) setupImportMetaURL(pb api.PluginBuild) {
	pb.OnLoad(api.OnLoadOptions{Filter: `\.(m?[jt]sx?|mts|cts)$`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		if a.Namespace != "file" || inPackage(a.Path) {
			return api.OnLoadResult{}, nil
		}
		data, err := b.contain.ReadFile("", a.Path, "")
		if isLimitError(err) {
			return loadError(err), nil
		}
		text := string(data)
		if err != nil || !mentionsFileRequests(text) || b.compilers.scriptCompiler(a.Path) != "" {
			// Unreadable: esbuild reads (and reports) it. Compiled by an npm
			// compiler: the compiler plugin rewrites its output.
			return api.OnLoadResult{}, nil
		}
		src, changed, errs, walked := b.rewriteFileRequests(a.Path, text)
		if errs != nil || !changed {
			return api.OnLoadResult{Errors: errs, WatchDirs: walked}, nil
		}
		return api.OnLoadResult{Contents: &src, Loader: jstransform.LoaderFor(a.Path), ResolveDir: filepath.Dir(a.Path), WatchDirs: walked}, nil
	})
}

// mentionsFileRequests reports whether a module's text may ask the build
// for files (rewriteFileRequests).
func mentionsFileRequests(text string) bool {
	return strings.Contains(text, "import.meta.url") || importglob.Mentions(text)
}

// rewriteFileRequests applies setupImportMetaURL's rewrites to text, the
// source of the project module file or what an npm compiler made of it.
// It returns the new text and whether it changed, or the errors that fail
// the module, and the folders import.meta.glob walked.
func (b *Builder) rewriteFileRequests(file, text string) (string, bool, []api.Message, []string) {
	src, changed := text, false
	var walked []string
	if importglob.Mentions(text) {
		out, expanded, errs, dirs := b.expandImportGlobs(file, text)
		if errs != nil {
			return text, false, errs, dirs
		}
		src, changed, walked = out, expanded, dirs
	}
	if !strings.Contains(text, "import.meta.url") {
		return src, changed, nil, walked
	}
	out, n := rewriteImportMetaURLs(src)
	if n == 0 {
		return src, changed, nil, walked
	}
	if errs := b.importMetaURLTargetErrors(file, text); errs != nil {
		return text, false, errs, walked
	}
	if b.publicURL == "" {
		if errs := inlineWorkerErrors(file, text); errs != nil {
			return text, false, errs, walked
		}
	}
	return out, true, nil, walked
}

// rewriteImportMetaURLs performs the rewrite of setupImportMetaURL and
// returns the new source and the number of URLs rewritten.
func rewriteImportMetaURLs(src string) (string, int) {
	var imports strings.Builder
	n := 0
	out := importMetaURLRE.ReplaceAllStringFunc(src, func(m string) string {
		sub := importMetaURLRE.FindStringSubmatch(m)
		spec := sub[3]
		suffix := "?url"
		if sub[1] != "" {
			suffix = "?worker&url"
		}
		v := fmt.Sprintf("__widgetd_url%d", n)
		n++
		q := strconv.Quote(spec + suffix)
		fmt.Fprintf(&imports, "\nimport %s from %s;", v, q)
		// Keep the match's line breaks, so later lines do not move.
		return sub[1] + "new URL(" + v + ", import.meta.url)" + strings.Repeat("\n", strings.Count(m[len(sub[1]):], "\n"))
	})
	return out + imports.String(), n
}

// inlineWorkerErrors reports, at their place in the source, the workers
// new Worker(new URL(…, import.meta.url)) starts, for a build with no public
// URL to load them from.
func inlineWorkerErrors(file, src string) []api.Message {
	var errs []api.Message
	for _, loc := range importMetaURLRE.FindAllStringSubmatchIndex(src, -1) {
		if loc[2] < 0 {
			continue // a plain new URL(), not a worker
		}
		spec := src[loc[6]:loc[7]]
		errs = append(errs, api.Message{Text: workerInlineMessage(spec), Location: locationAt(file, src, loc[0], loc[1]-loc[0])})
	}
	return errs
}

// importMetaURLTargetErrors checks the file each new URL("./x",
// import.meta.url) names the way any import is checked, and reports a
// refusal at the new URL(…) itself: the import it becomes sits at the end of
// the module, where a message would point at nothing the author wrote.
func (b *Builder) importMetaURLTargetErrors(file, src string) []api.Message {
	var errs []api.Message
	for _, loc := range importMetaURLRE.FindAllStringSubmatchIndex(src, -1) {
		spec := src[loc[6]:loc[7]]
		err := b.contain.Check(spec, filepath.Join(filepath.Dir(file), filepath.FromSlash(spec)), "")
		if err == nil {
			continue
		}
		m := limitMessage(err)
		m.Location = locationAt(file, src, loc[6]-1, loc[7]-loc[6]+2) // at the quote, as esbuild places imports
		errs = append(errs, m)
	}
	return errs
}

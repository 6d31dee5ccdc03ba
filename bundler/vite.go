package bundler

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Vite's conventions that real widgets use, as one esbuild plugin: inline
// module scripts of HTML entries, import suffixes (?raw, ?url, ?inline,
// ?worker), new URL("./file", import.meta.url), and CSS @import of npm
// packages through their "style" export. import.meta.env is a Define (env.go).

const (
	inlineScriptNamespace = "widgetd-inline-script"
	rawNamespace          = "widgetd-raw"
	urlNamespace          = "widgetd-url"
	inlineNamespace       = "widgetd-inline"
	workerNamespace       = "widgetd-worker"
	workerFileNamespace   = "widgetd-worker-file"
)

// projectDir is the folder HTML entries may link files from: the project
// root, or the widgets folder's parent when the widgets live elsewhere.
func (b *Builder) projectDir() string {
	if within(b.root, b.widgetsDir) {
		return b.root
	}
	return filepath.Dir(b.widgetsDir)
}

// importSuffixRE splits "./file.svg?raw" into the path and Vite's query.
var importSuffixRE = regexp.MustCompile(`^(.+)\?(raw|url|inline|worker|worker&inline|worker&url|sharedworker)$`)

// vitePlugin resolves Vite's import conventions.
func (b *Builder) vitePlugin() api.Plugin {
	return api.Plugin{Name: "widgetd-vite", Setup: func(pb api.PluginBuild) {
		b.setupInlineScripts(pb)
		b.setupSuffixes(pb)
		b.setupImportMetaURL(pb)
		setupStyleCondition(pb)
	}}
}

// setupInlineScripts loads the inline <script type="module"> texts of HTML
// entries as modules in the HTML file's folder.
func (b *Builder) setupInlineScripts(pb api.PluginBuild) {
	pb.OnResolve(api.OnResolveOptions{Filter: "^" + inlineScriptPrefix}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		return api.OnResolveResult{Path: a.Importer + ":" + strings.TrimPrefix(a.Path, inlineScriptPrefix), Namespace: inlineScriptNamespace}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: inlineScriptNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		name, idx, _ := strings.Cut(a.Path, ":")
		w := b.widgetByName(name)
		i, err := strconv.Atoi(idx)
		if w == nil || w.html == nil || err != nil || i < 0 || i >= len(w.html.inlineScripts) {
			return api.OnLoadResult{}, fmt.Errorf("unknown inline script %q", a.Path)
		}
		if b.publicURL == "" {
			if errs := inlineWorkerErrors(w.Entry, w.html.inlineScripts[i]); errs != nil {
				return api.OnLoadResult{Errors: errs}, nil
			}
		}
		src, _ := rewriteImportMetaURLs(w.html.inlineScripts[i])
		return api.OnLoadResult{Contents: &src, ResolveDir: filepath.Dir(w.Entry), Loader: api.LoaderJS}, nil
	})
}

// resolveFile resolves an import path (relative or bare) the way esbuild
// would, for the suffix loaders.
func resolveFile(pb api.PluginBuild, p string, a api.OnResolveArgs) (string, []api.Message) {
	if filepath.IsAbs(p) {
		return p, nil
	}
	r := pb.Resolve(p, api.ResolveOptions{ResolveDir: a.ResolveDir, Importer: a.Importer, Kind: api.ResolveJSImportStatement})
	if len(r.Errors) > 0 {
		return "", r.Errors
	}
	return r.Path, nil
}

// setupSuffixes handles ?raw (the file as a string), ?url (its URL: a hashed
// file in external mode, a data: URL inline), ?inline (a data: URL; for CSS,
// the bundled stylesheet as a string) and ?worker (a Worker constructor for
// the file bundled on its own).
func (b *Builder) setupSuffixes(pb api.PluginBuild) {
	pb.OnResolve(api.OnResolveOptions{Filter: `\?(raw|url|inline|worker|worker&inline|worker&url|sharedworker)$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		m := importSuffixRE.FindStringSubmatch(a.Path)
		if m == nil {
			return api.OnResolveResult{}, nil
		}
		if strings.Contains(m[2], "worker") && m[2] != "worker&url" && b.publicURL == "" {
			return api.OnResolveResult{}, fmt.Errorf("%s", workerInlineMessage(m[1]))
		}
		file, errs := resolveFile(pb, m[1], a)
		if errs != nil {
			return api.OnResolveResult{Errors: errs}, nil
		}
		// Checked before esbuild sees the file as one to watch (it reads
		// watched files itself).
		if err := b.contain.Check(m[1], file, ""); err != nil {
			return api.OnResolveResult{Errors: []api.Message{limitMessage(err)}}, nil
		}
		ns := map[string]string{"raw": rawNamespace, "url": urlNamespace, "inline": inlineNamespace,
			"worker": workerNamespace, "worker&inline": workerNamespace, "sharedworker": workerNamespace, "worker&url": workerFileNamespace}[m[2]]
		if m[2] == "worker&url" {
			return api.OnResolveResult{Path: b.relPath(workerOutputName(file)), Namespace: ns, PluginData: file, WatchFiles: []string{file}}, nil
		}
		return api.OnResolveResult{Path: b.relPath(file), Namespace: ns, PluginData: m[2], WatchFiles: []string{file}}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: rawNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		return b.loadFileAs(rootFile(b.root, a.Path), api.LoaderText), nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: urlNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		loader := api.LoaderFile
		if b.publicURL == "" {
			loader = api.LoaderDataURL // no origin to load files from
		}
		file := rootFile(b.root, a.Path)
		res := b.loadFileAs(file, loader)
		res.ResolveDir = filepath.Dir(file)
		return res, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: inlineNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		file := rootFile(b.root, a.Path)
		if strings.EqualFold(filepath.Ext(file), ".css") {
			css, files, err := b.bundleSeparately(file, false, a.Namespace+":"+a.Path)
			if err != nil {
				return loadError(err), nil
			}
			return api.OnLoadResult{Contents: &css, Loader: api.LoaderText, WatchFiles: files}, nil
		}
		return b.loadFileAs(file, api.LoaderDataURL), nil
	})
	b.setupWorkers(pb)
}

// loadFileAs loads file's bytes, read through the containment, as a module
// with the given loader, watched.
func (b *Builder) loadFileAs(file string, loader api.Loader) api.OnLoadResult {
	data, err := b.contain.ReadFile("", file, "")
	if err != nil {
		return loadError(err)
	}
	s := string(data)
	return api.OnLoadResult{Contents: &s, Loader: loader, WatchFiles: []string{file}}
}

// bundleSeparately bundles one file (a stylesheet for ?inline, a worker
// script) on its own, minified, and returns the output and the files it read,
// which it also records as the reads of the module named key in the
// metafile (nestedReads), so that an edit to any of them rebuilds the
// widgets holding it.
func (b *Builder) bundleSeparately(file string, script bool, key string) (string, []string, error) {
	loaders := map[string]api.Loader{}
	for _, ext := range assetExts {
		loaders[ext] = api.LoaderDataURL
	}
	opts := api.BuildOptions{
		AbsWorkingDir: b.root, EntryPoints: []string{file}, Bundle: true, Write: false,
		Outdir: filepath.Join(b.root, outBase, "separate"), Target: b.target, Engines: b.engines,
		MinifyWhitespace: true, MinifyIdentifiers: true, MinifySyntax: true, Loader: loaders,
		Platform: api.PlatformBrowser, Format: api.FormatESModule, Charset: api.CharsetUTF8,
		LegalComments: api.LegalCommentsEndOfFile, Metafile: true, LogLevel: api.LogLevelSilent,
		// Containment first, as in the main build: the nested build reads
		// files of its own (a worker's imports, a stylesheet's @import and
		// url()).
		Define: b.envDefines(), Plugins: b.containedPlugins(b.vitePlugin()),
	}
	if !script {
		opts.Format = api.FormatDefault
	}
	r := api.Build(opts)
	if len(r.Errors) > 0 {
		text := messagesText(b.absLocations(r.Errors))
		if code := limitCode(r.Errors[0].PluginName); code != "" {
			return "", nil, &limitError{Code: code, Msg: text} // keeps its code at the import
		}
		return "", nil, fmt.Errorf("%s", text)
	}
	var out string
	for _, f := range r.OutputFiles {
		if (script && strings.HasSuffix(f.Path, ".js")) || (!script && strings.HasSuffix(f.Path, ".css")) {
			out = string(f.Contents)
		}
	}
	inputs, known := b.metafileReads(r.Metafile)
	if known {
		b.nestedReads.record(key, inputs)
	}
	return strings.TrimSpace(out), inputs, nil
}

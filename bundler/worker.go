package bundler

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// setupWorkers handles ?worker (a constructor for a module Worker running
// the file, bundled on its own) and ?worker&url (the bundled file's URL, as
// new Worker(new URL("./w.ts", import.meta.url)) is rewritten to use).
//
// The worker is its own hashed file, loaded from the public URL. An inline
// widget has no file to start a worker from, and the spec CSP (no
// worker-src, so script-src: no blob:, no data:) blocks every other way, so
// an inline build fails naming the worker and the fix.
func (b *Builder) setupWorkers(pb api.PluginBuild) {
	pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: workerNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		kind, _ := a.PluginData.(string)
		ctor := "Worker"
		if kind == "sharedworker" {
			ctor = "SharedWorker"
		}
		file := rootFile(b.root, a.Path)
		spec, err := json.Marshal(file + "?worker&url")
		if err != nil {
			return api.OnLoadResult{}, err
		}
		src := "import url from " + string(spec) + ";\n" +
			"export default function WorkerWrapper(options) {\n" +
			"  return new " + ctor + "(url, { type: \"module\", name: options && options.name });\n}\n"
		return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS, ResolveDir: filepath.Dir(file)}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: workerFileNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		file, _ := a.PluginData.(string)
		if file == "" {
			file = rootFile(b.root, a.Path)
		}
		if b.publicURL == "" {
			return api.OnLoadResult{}, fmt.Errorf("%s", workerInlineMessage(b.displayPath(file)))
		}
		js, inputs, err := b.bundleSeparately(file, true, a.Namespace+":"+a.Path)
		if err != nil {
			return loadError(fmt.Errorf("worker %s: %w", b.displayPath(file), err)), nil
		}
		return api.OnLoadResult{Contents: &js, Loader: api.LoaderFile, WatchFiles: inputs}, nil
	})
}

// workerOutputName names the worker's output after its source with a .js
// extension, so the hashed file is served as JavaScript.
func workerOutputName(file string) string {
	return strings.TrimSuffix(file, filepath.Ext(file)) + ".worker.js"
}

// workerInlineMessage explains why a worker cannot run in an inline widget.
func workerInlineMessage(file string) string {
	return fmt.Sprintf("the worker %s cannot run in an inline widget: the spec CSP has no worker-src, so a worker must be a script file from an allowed origin (blob: and data: workers are blocked). "+
		"Build the widget external (widgetd build --public-url https://…) so the worker is its own hashed file, or run that code on the main thread (import it instead of starting a worker)", file)
}

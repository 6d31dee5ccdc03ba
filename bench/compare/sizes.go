package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/widgetd/widgetd/bench/internal/benchenv"
	"github.com/widgetd/widgetd/bundler"
)

// size is what a host transfers for one widget: the sum over every file it
// loads of the identity, gzip and brotli sizes.
type size struct {
	raw, gzip, brotli int64
	files             int
}

// sizeTable maps widget name → tool key → size.
type sizeTable struct {
	tools   []string // keys, in column order
	names   map[string]string
	widgets []string
	by      map[string]map[string]size
}

func (s *sizeTable) add(widget, tool string, z size) {
	if s.by[widget] == nil {
		s.by[widget] = map[string]size{}
		s.widgets = append(s.widgets, widget)
	}
	s.by[widget][tool] = z
}

// publicURL is the made-up origin of the untimed external-mode widgetd build.
const publicURL = "https://assets.example.com/widgets"

// sizes collects every tool's output sizes. widgetd's come from its own
// result (the .br/.gz files it wrote); a file it wrote no variant for (the
// HTML documents, which hosts read through resources/read, unless
// --precompress-html) is compressed here with the same settings, so the
// comparison is what `--precompress-html` would serve over HTTP. Vite's files
// are compressed here with the same settings widgetd uses.
func (b *bench) sizes(ctx context.Context) (*sizeTable, error) {
	st := &sizeTable{names: map[string]string{}, by: map[string]map[string]size{}}
	for _, d := range b.widgets {
		st.by[filepath.Base(d)] = map[string]size{}
		st.widgets = append(st.widgets, filepath.Base(d))
	}
	wd := b.tools[0]
	res, err := wd.widgetdResult()
	if err != nil {
		return nil, err
	}
	var addErr error
	addWidgetd := func(key, out string, res resultWidgets) {
		for _, w := range res {
			var z size
			for _, f := range w.files {
				if f.gzip == 0 && f.brotli == 0 {
					data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f.path)))
					if err != nil {
						addErr = err
						return
					}
					gz, br, err := compress(data)
					if err != nil {
						addErr = err
						return
					}
					f.gzip, f.brotli = int64(len(gz)), int64(len(br))
				}
				z.raw += f.raw
				z.gzip += orRaw(f.gzip, f.raw)
				z.brotli += orRaw(f.brotli, f.raw)
				z.files++
			}
			st.add(w.name, key, z)
		}
	}
	st.tools = append(st.tools, wd.key)
	st.names[wd.key] = "widgetd (inline)"
	addWidgetd(wd.key, wd.out, summarize(res.Widgets))

	// widgetd external mode, untimed: HTML + hashed JS/CSS served from a URL.
	ext := &tool{key: "widgetd-external", name: "widgetd --public-url", widgetd: true,
		args: func(out string) []string {
			return []string{b.bin, "build", "--widgets", b.project, "--out", out, "--public-url", publicURL, "--json"}
		},
		out: filepath.Join(b.tmp, "out-widgetd-external")}
	if _, err := ext.once(ctx, true); err != nil {
		return nil, err
	}
	eres, err := ext.widgetdResult()
	if err != nil {
		return nil, err
	}
	st.tools = append(st.tools, ext.key)
	st.names[ext.key] = "widgetd (external)"
	addWidgetd(ext.key, ext.out, summarize(eres.Widgets))
	if addErr != nil {
		return nil, fmt.Errorf("widgetd output sizes: %w", addErr)
	}

	for _, t := range b.tools[1:] {
		st.tools = append(st.tools, t.key)
		st.names[t.key] = t.name
		for _, w := range st.widgets {
			z, err := dirSize(filepath.Join(t.out, w))
			if err != nil {
				return nil, fmt.Errorf("%s output of widget %q: %w", t.name, w, err)
			}
			st.add(w, t.key, z)
		}
	}
	return st, nil
}

type fileSizes struct {
	path              string
	raw, gzip, brotli int64
}

type resultWidgets []struct {
	name  string
	files []fileSizes
}

// summarize keeps the sizes of a widgetd result's widgets.
func summarize(ws []bundler.WidgetSummary) resultWidgets {
	out := make(resultWidgets, len(ws))
	for i, w := range ws {
		out[i].name = w.Name
		for _, f := range w.Files {
			out[i].files = append(out[i].files, fileSizes{path: f.Path, raw: f.Size, gzip: f.Gzip, brotli: f.Brotli})
		}
	}
	return out
}

func orRaw(enc, raw int64) int64 {
	if enc == 0 || enc > raw {
		return raw
	}
	return enc
}

// dirSize sums every file under dir (everything that widget's build emitted,
// all of which the host loads), each compressed with gzip 9 and brotli q11.
// A compressed size larger than the file counts as the file (served as is).
func dirSize(dir string) (size, error) {
	var z size
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		gz, br, err := compress(data)
		if err != nil {
			return fmt.Errorf("compress %s: %w", p, err)
		}
		raw := int64(len(data))
		z.raw += raw
		z.gzip += min(int64(len(gz)), raw)
		z.brotli += min(int64(len(br)), raw)
		z.files++
		return nil
	})
	if err == nil && z.files == 0 {
		err = fmt.Errorf("no files in %s", dir)
	}
	return z, err
}

// compress returns data gzip -9 and brotli q11 (window 22), the settings
// widgetd precompresses with.
func compress(data []byte) (gz, br []byte, err error) {
	var g, b bytes.Buffer
	gw, err := gzip.NewWriterLevel(&g, gzip.BestCompression)
	if err != nil {
		return nil, nil, err
	}
	if _, err := gw.Write(data); err != nil {
		return nil, nil, err
	}
	if err := gw.Close(); err != nil {
		return nil, nil, err
	}
	bw := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 22})
	if _, err := bw.Write(data); err != nil {
		return nil, nil, err
	}
	if err := bw.Close(); err != nil {
		return nil, nil, err
	}
	return g.Bytes(), b.Bytes(), nil
}

// bridgeRow is one line of the bridge-weight table.
type bridgeRow struct {
	name, how         string
	raw, gzip, brotli int64
}

// appWithDeps is the official App class bundled with its dependencies.
const appWithDeps = "node_modules/@modelcontextprotocol/ext-apps/dist/src/app-with-deps.js"

// bridgeWeight measures widgetd's injected bridge (as the build reports it)
// beside @modelcontextprotocol/ext-apps' app-with-deps.js, both as shipped
// and as a widget importing only App would bundle it with esbuild.
func (b *bench) bridgeWeight() ([]bridgeRow, error) {
	res, err := b.tools[0].widgetdResult()
	if err != nil {
		return nil, err
	}
	if res.Bridge == nil {
		return nil, fmt.Errorf("widgetd --json gave no bridge size")
	}
	rows := []bridgeRow{{
		name: "widgetd bridge (\"widgetd\" module)", how: "esbuild-minified as a widget build emits it",
		raw: int64(res.Bridge.Raw), gzip: int64(res.Bridge.Gzip), brotli: int64(res.Bridge.Brotli),
	}}
	file := filepath.Join(b.vite, appWithDeps)
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("official App: %w (npm ci in %s)", err, b.vite)
	}
	extVer, err := benchenv.PkgVersion(b.vite, "@modelcontextprotocol/ext-apps")
	if err != nil {
		return nil, err
	}
	row := func(name, how string, js []byte) error {
		gz, br, err := compress(js)
		if err != nil {
			return err
		}
		rows = append(rows, bridgeRow{name: name, how: how, raw: int64(len(js)), gzip: int64(len(gz)), brotli: int64(len(br))})
		return nil
	}
	if err := row("ext-apps "+extVer+" app-with-deps.js", "file as shipped (already minified)", data); err != nil {
		return nil, err
	}
	// What a widget importing only App gets: first from app-with-deps.js,
	// then from the package's main entry with client/core/zod resolved from
	// node_modules (how the official examples build).
	bundled := func(from string) ([]byte, error) {
		return esbuildApp(b.vite, from)
	}
	js, err := bundled(file)
	if err != nil {
		return nil, err
	}
	if err := row("ext-apps "+extVer+" App via app-with-deps", "esbuild bundle+minify of `export { App }`", js); err != nil {
		return nil, err
	}
	if js, err = bundled("@modelcontextprotocol/ext-apps"); err != nil {
		return nil, err
	}
	if err := row("ext-apps "+extVer+" App via main entry + peers", "esbuild bundle+minify of `export { App }` (client, core, zod from npm)", js); err != nil {
		return nil, err
	}
	return rows, nil
}

// esbuildApp bundles and minifies `export { App } from from` as a widget build
// would (ES2020, browser, tree-shaken) and returns the JS.
func esbuildApp(resolveDir, from string) ([]byte, error) {
	r := api.Build(api.BuildOptions{
		Stdin:             &api.StdinOptions{Contents: fmt.Sprintf("export { App } from %q;", from), ResolveDir: resolveDir, Loader: api.LoaderJS},
		Bundle:            true,
		Write:             false,
		Format:            api.FormatESModule,
		Platform:          api.PlatformBrowser,
		Target:            api.ES2020,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		TreeShaking:       api.TreeShakingTrue,
		Define:            map[string]string{"process.env.NODE_ENV": `"production"`},
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		return nil, fmt.Errorf("esbuild App from %s: %s", from, r.Errors[0].Text)
	}
	if len(r.OutputFiles) != 1 {
		return nil, fmt.Errorf("esbuild App from %s: %d output files", from, len(r.OutputFiles))
	}
	return r.OutputFiles[0].Contents, nil
}

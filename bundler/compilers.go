package bundler

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/importglob"
	"github.com/widgetd/widgetd/bundler/internal/npminstall"
	"github.com/widgetd/widgetd/internal/jscompile"
)

// compiledStyleNamespace holds the CSS a component compiler extracted from a
// .vue or .svelte file; its path is the component's absolute path.
const compiledStyleNamespace = "widgetd-style"

// maxCompileCache bounds the compile cache (entries); it is emptied when full.
const maxCompileCache = 1024

// compilers runs the npm compilers (Tailwind, PostCSS, Vue, Svelte, Solid)
// in one Node helper for the life of a Builder. Nothing starts Node until a
// file needs one of them.
type compilers struct {
	b    *Builder
	node *jscompile.Helper

	mu     sync.Mutex
	ctx    context.Context
	used   bool                    // a compiler ran in the current build
	styles map[string]string       // component path → extracted CSS
	graphs map[string]*moduleGraph // widget name → its local module graph, this build

	graphCtx map[string]api.BuildContext // widget name → esbuild context of its graph pass
	graphSet string                      // the widget set graphCtx was made for
	cache    map[string]*compiledOutput  // op, file and source hash → output
	configs  map[string]*jsxConfig       // folder → nearest tsconfig/jsconfig JSX settings
	// cssRead are the files Tailwind or PostCSS read this build (a
	// stylesheet's own @import), which esbuild's metafile does not list.
	cssRead map[string]bool
}

// compiledOutput is what a component compiler returns.
type compiledOutput struct {
	Code     string            `json:"code"`
	CSS      string            `json:"css"`
	Loader   string            `json:"loader"`
	Warnings []compilerWarning `json:"warnings"`
}

// compilerWarning is a compiler's warning at a 1-based position in the file.
type compilerWarning struct {
	Message string `json:"message"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

func newCompilers(b *Builder) *compilers {
	return &compilers{b: b, node: jscompile.New(jscompile.Options{Dir: b.root}), ctx: context.Background(),
		styles: map[string]string{}, cache: map[string]*compiledOutput{}}
}

// startBuild sets the context for the compile calls of one esbuild run and
// forgets per-build state (configs may have changed since the last one).
func (c *compilers) startBuild(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ctx, c.used, c.configs, c.graphs = ctx, false, map[string]*jsxConfig{}, map[string]*moduleGraph{}
	c.cssRead = map[string]bool{}
}

// noteCSSRead records files a stylesheet compiler read.
func (c *compilers) noteCSSRead(files []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cssRead == nil {
		c.cssRead = map[string]bool{}
	}
	for _, f := range files {
		c.cssRead[f] = true
	}
}

// readByCSS reports whether a stylesheet compiler read file this build.
func (c *compilers) readByCSS(file string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cssRead[file]
}

// usedNode reports whether the last build ran any npm compiler. Such builds
// depend on files esbuild does not report (Tailwind's scanned sources, config
// files, the compilers themselves), so they never take the up-to-date shortcut.
func (c *compilers) usedNode() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

func (c *compilers) close() {
	c.node.Close()
	c.mu.Lock()
	c.disposeGraphsLocked()
	c.mu.Unlock()
}

func (c *compilers) context() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used = true
	return c.ctx
}

// compilerPlugin compiles .vue, .svelte, Solid .jsx/.tsx and Tailwind or
// PostCSS stylesheets through the project's own npm compilers.
func (b *Builder) compilerPlugin() api.Plugin { return b.compilers.plugin(true) }

// plugin is the compiler plugin; without stylesheets it serves the module
// graph pass that finds Tailwind's candidate files.
func (c *compilers) plugin(stylesheets bool) api.Plugin {
	return api.Plugin{Name: "widgetd-compilers", Setup: func(pb api.PluginBuild) {
		// The flags Vue's esm-bundler build expects its bundler to define
		// (as @vitejs/plugin-vue does); inert for code that is not Vue.
		if pb.InitialOptions.Define == nil {
			pb.InitialOptions.Define = map[string]string{}
		}
		for k, v := range map[string]string{"__VUE_OPTIONS_API__": "true", "__VUE_PROD_DEVTOOLS__": "false", "__VUE_PROD_HYDRATION_MISMATCH_DETAILS__": "false"} {
			if _, ok := pb.InitialOptions.Define[k]; !ok {
				pb.InitialOptions.Define[k] = v
			}
		}
		pb.OnLoad(api.OnLoadOptions{Filter: `\.vue$`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			return c.component("vue", a.Path), nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `\.svelte(\.[jt]s)?$`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			return c.component("svelte", a.Path), nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `\.[jt]sx$`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			op := c.scriptCompiler(a.Path)
			if a.Namespace != "file" || op == "" {
				return api.OnLoadResult{}, nil // esbuild's own JSX (tsconfig's jsxImportSource applies)
			}
			return c.component(op, a.Path), nil
		})
		pb.OnResolve(api.OnResolveOptions{Filter: "^" + compiledStyleNamespace + ":"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: strings.TrimPrefix(a.Path, compiledStyleNamespace+":"), Namespace: compiledStyleNamespace}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: compiledStyleNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			file := rootFile(c.b.root, a.Path)
			c.mu.Lock()
			css := c.styles[file]
			c.mu.Unlock()
			if !stylesheets {
				return api.OnLoadResult{Contents: &css, Loader: api.LoaderCSS, ResolveDir: filepath.Dir(file)}, nil
			}
			return c.componentStyle(file, css), nil
		})
		if stylesheets {
			pb.OnLoad(api.OnLoadOptions{Filter: `\.css$`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				return c.stylesheet(a.Path), nil
			})
		}
	}}
}

// component compiles one .vue, .svelte or Solid file.
func (c *compilers) component(op, file string) api.OnLoadResult {
	src, err := c.b.contain.ReadFile("", file, "")
	if err != nil {
		return loadError(err)
	}
	sum := sha256.Sum256(src)
	key := op + "\x00" + file + "\x00" + hex.EncodeToString(sum[:])
	c.mu.Lock()
	out := c.cache[key]
	c.mu.Unlock()
	if out == nil {
		out = &compiledOutput{}
		source := string(src)
		req := map[string]string{"dir": filepath.Dir(file), "file": file, "scopeId": scopeID(c.b.relPath(file)), "refreshId": c.b.relPath(file)}
		if loader, ok := typesToStrip(op, file); ok {
			// Svelte compiles rune modules from JavaScript, and Solid's
			// preset wants JSX without types: esbuild strips the types
			// first (keeping JSX), so @babel/preset-typescript is not needed
			// and syntax errors come with esbuild's exact positions.
			r := api.Transform(source, api.TransformOptions{Loader: loader, JSX: api.JSXPreserve, Target: api.ESNext, Sourcefile: c.b.relPath(file)})
			if len(r.Errors) > 0 {
				return api.OnLoadResult{Errors: r.Errors}
			}
			if (op == "solid" || op == "refresh") && c.b.sourceMaps {
				// Babel chains this map into Solid's, so positions reach the
				// .tsx lines (sources relative to the file, as esbuild reads them).
				r = api.Transform(source, api.TransformOptions{Loader: loader, JSX: api.JSXPreserve, Target: api.ESNext,
					Sourcefile: filepath.Base(file), Sourcemap: api.SourceMapInline})
			}
			source, req["stripped"] = string(r.Code), "1"
		}
		req["source"] = source
		if op == "vue" && c.b.sourceMaps {
			// The helper then chains the script's and template's maps into one.
			req["sourceMap"] = "1"
		}
		if err := c.node.Call(c.context(), op, req, out); err != nil {
			return c.failure(op, file, src, err)
		}
		c.mu.Lock()
		if len(c.cache) >= maxCompileCache {
			c.cache = map[string]*compiledOutput{}
		}
		c.cache[key] = out
		c.mu.Unlock()
	} else {
		c.context() // still a build that depends on Node's output
	}
	code := out.Code
	var walked []string
	if mentionsFileRequests(code) {
		// import.meta.glob and new URL(…, import.meta.url) survive the
		// compilers as written; rewrite them in the compiled module (its
		// lines are the compiler's). An error in the call's own arguments
		// is shown at its place in the source.
		rewritten, changed, errs, dirs := c.b.rewriteFileRequests(file, code)
		if errs != nil {
			if _, srcErrs := importglob.Find(string(src)); len(srcErrs) > 0 {
				errs = nil
				for _, e := range srcErrs {
					errs = append(errs, api.Message{Text: e.Msg, Location: locationAt(c.b.relPath(file), string(src), e.Offset, 0)})
				}
			}
			return api.OnLoadResult{Errors: errs, WatchDirs: dirs}
		}
		if changed {
			code = rewritten
		}
		walked = dirs
	}
	if out.CSS != "" {
		c.mu.Lock()
		c.styles[file] = out.CSS
		c.mu.Unlock()
		q, _ := json.Marshal(compiledStyleNamespace + ":" + c.b.relPath(file))
		code += "\nimport " + string(q) + ";\n"
	}
	loader := api.LoaderJS
	switch out.Loader {
	case "ts":
		loader = api.LoaderTS
	case "jsx":
		loader = api.LoaderJSX
	}
	return api.OnLoadResult{Contents: &code, Loader: loader, ResolveDir: filepath.Dir(file), Warnings: warningMessages(c.b.relPath(file), src, out.Warnings), WatchDirs: walked}
}

// scriptCompiler names the compile the compiler plugin runs on the
// script module file: "svelte" for a Svelte rune module, "refresh" or
// "solid" for the project's JSX through React Refresh or Solid's compiler;
// "" when esbuild loads it as it is.
func (c *compilers) scriptCompiler(file string) string {
	switch {
	case strings.HasSuffix(file, ".svelte.js") || strings.HasSuffix(file, ".svelte.ts"):
		return "svelte"
	case inPackage(file) || !strings.HasSuffix(file, ".jsx") && !strings.HasSuffix(file, ".tsx"):
		return ""
	case c.refreshesJSX(file):
		return "refresh"
	case c.jsxConfig(filepath.Dir(file)).Solid:
		return "solid"
	}
	return ""
}

// warningMessages turns compiler warnings into esbuild warnings at their
// place in the source.
func warningMessages(rel string, src []byte, ws []compilerWarning) []api.Message {
	if len(ws) == 0 {
		return nil
	}
	lines := strings.Split(string(src), "\n")
	msgs := make([]api.Message, 0, len(ws))
	for _, w := range ws {
		loc := &api.Location{File: rel, Line: w.Line, Column: max(w.Column-1, 0)}
		if w.Line > 0 && w.Line <= len(lines) {
			loc.LineText = strings.TrimRight(lines[w.Line-1], "\r")
		}
		msgs = append(msgs, api.Message{Text: w.Message, Location: loc})
	}
	return msgs
}

// typesToStrip returns the esbuild loader that strips a file's TypeScript
// before its compiler sees it, and whether it needs that.
func typesToStrip(op, file string) (api.Loader, bool) {
	switch {
	case op == "svelte" && strings.HasSuffix(file, ".svelte.ts"):
		return api.LoaderTS, true
	case (op == "solid" || op == "refresh") && strings.HasSuffix(file, ".tsx"):
		return api.LoaderTSX, true
	}
	return api.LoaderNone, false
}

// scopeID is the stable id a Vue component's scoped styles use: the first 8
// hex digits of the SHA-256 of its project-relative path, as Vite does.
func scopeID(rel string) string {
	sum := sha256.Sum256([]byte(rel))
	return hex.EncodeToString(sum[:4])
}

// tailwindV4 matches what makes a stylesheet a Tailwind v4 root.
var tailwindV4 = regexp.MustCompile(`@import\s+(?:url\(\s*)?["']tailwindcss(?:/[^"']*)?["']|@(?:tailwind|theme|source|plugin|config|utility|variant|custom-variant|reference|apply)\b`)

// tailwindV3 matches the v3-only layer directives.
var tailwindV3 = regexp.MustCompile(`@tailwind\s+(?:base|components|screens|variants)\b`)

// stylesheet runs a project stylesheet through PostCSS (when a
// postcss.config.* or a Tailwind v3 setup applies) or Tailwind v4; any other
// stylesheet is left to esbuild.
func (c *compilers) stylesheet(file string) api.OnLoadResult {
	root := c.b.root
	if !within(root, file) || inPackage(file) {
		return api.OnLoadResult{}
	}
	src, err := c.b.contain.ReadFile("", file, "")
	if isLimitError(err) {
		return loadError(err)
	}
	if err != nil {
		return api.OnLoadResult{}
	}
	return c.compileCSS(file, src, false)
}

// componentStyle runs the CSS a .vue/.svelte file's <style> blocks compiled
// to through PostCSS or Tailwind when a stylesheet in its folder would be
// (a postcss.config above it, or Tailwind directives such as @apply with
// @reference), as Vite does for a component's style blocks.
func (c *compilers) componentStyle(file, css string) api.OnLoadResult {
	plain := api.OnLoadResult{Contents: &css, Loader: api.LoaderCSS, ResolveDir: filepath.Dir(file)}
	if css == "" || !within(c.b.root, file) {
		return plain
	}
	res := c.compileCSS(file, []byte(css), true)
	if res.Contents == nil && len(res.Errors) == 0 {
		return plain
	}
	res.Loader = api.LoaderCSS
	return res
}

// compileCSS compiles one stylesheet's source; file is where it lives (a
// component for its style blocks, whose positions inside the file are not
// known: errors then carry no line). An empty result means "plain CSS".
func (c *compilers) compileCSS(file string, src []byte, inComponent bool) api.OnLoadResult {
	root := c.b.root
	dir := filepath.Dir(file)
	postcssConfig := findUp(dir, root, "postcss.config.js", "postcss.config.cjs", "postcss.config.mjs", ".postcssrc.js", ".postcssrc.cjs", ".postcssrc.mjs")
	var op string
	req := map[string]any{"dir": dir, "file": file, "source": string(src)}
	switch {
	case postcssConfig != "":
		op, req["config"] = "postcss", postcssConfig
	case !tailwindV4.Match(src):
		return api.OnLoadResult{}
	case tailwindV3.Match(src) || (!strings.Contains(string(src), "tailwindcss") && findUp(dir, root, tailwindConfigs...) != ""):
		cfg := findUp(dir, root, tailwindConfigs...)
		if cfg == "" {
			return c.failure("tailwind3", file, src, errors.New("@tailwind base/components are Tailwind v3 directives and no tailwind.config.js was found between this file and the project root; add one, or use Tailwind v4's @import \"tailwindcss\""))
		}
		op, req["tailwindConfig"] = "postcss", cfg
	default:
		op = "tailwind"
		files, err := c.tailwindCandidateFiles(file)
		if err != nil {
			return c.failure(op, file, src, err)
		}
		req["files"] = files
	}
	cfg, _ := req["config"].(string)
	twCfg, _ := req["tailwindConfig"].(string)
	if m := c.b.contain.CheckCSSReads(file, c.b.relPath(file), src, cfg, twCfg); m != nil {
		if inComponent {
			m.Location = &api.Location{File: m.Location.File} // the position is in the <style> block
		}
		return api.OnLoadResult{Errors: []api.Message{*m}}
	}
	var out struct {
		CSS          string   `json:"css"`
		Dependencies []string `json:"dependencies"`
	}
	if err := c.node.Call(c.context(), op, req, &out); err != nil {
		if op == "postcss" && req["tailwindConfig"] != nil {
			op = "tailwind3"
		}
		if inComponent {
			src = nil // positions are inside the <style> block, not the file
		}
		return c.failure(op, file, src, err)
	}
	if m := c.b.contain.CheckCSSDependencies(c.b.relPath(file), out.Dependencies); m != nil {
		return api.OnLoadResult{Errors: []api.Message{*m}}
	}
	c.noteCSSRead(out.Dependencies)
	loader := api.LoaderCSS
	if strings.HasSuffix(file, ".module.css") {
		loader = api.LoaderLocalCSS // CSS modules stay CSS modules
	}
	return api.OnLoadResult{Contents: &out.CSS, Loader: loader, ResolveDir: dir}
}

var tailwindConfigs = []string{"tailwind.config.js", "tailwind.config.cjs", "tailwind.config.mjs", "tailwind.config.ts"}

// widgetOf returns the widget whose folder holds file, or nil.
func (b *Builder) widgetOf(file string) *widget {
	for _, w := range b.widgets {
		if within(w.Dir, file) {
			return w
		}
	}
	return nil
}

// relPath is file relative to the project root, with forward slashes.
func (b *Builder) relPath(file string) string {
	rel, err := filepath.Rel(b.root, file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(rel)
}

// findUp returns the first of names found in dir or an ancestor up to root.
func findUp(dir, root string, names ...string) string {
	for d := dir; within(root, d); d = filepath.Dir(d) {
		for _, n := range names {
			p := filepath.Join(d, n)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p
			}
		}
		if d == root || filepath.Dir(d) == d {
			break
		}
	}
	return ""
}

// what names the feature a compiler serves, for messages.
var what = map[string]string{
	"vue": "a Vue single-file component", "svelte": "a Svelte component", "solid": "Solid JSX (jsxImportSource \"solid-js\" in tsconfig)", "refresh": "React Refresh in widgetd dev",
	"tailwind": "Tailwind CSS v4", "tailwind3": "Tailwind CSS v3", "postcss": "a postcss.config",
}

// failure turns a compile error into an esbuild error at the file's position,
// or an install instruction for a missing Node or package.
func (c *compilers) failure(op, file string, src []byte, err error) api.OnLoadResult {
	rel := c.b.relPath(file)
	widget := c.b.widgetsLabel(file)
	installDir := c.b.root
	if w := c.b.widgetOf(file); w != nil {
		if p := findUp(w.Dir, c.b.root, "package.json"); p != "" {
			installDir = filepath.Dir(p)
		}
	} else if p := findUp(filepath.Dir(file), c.b.root, "package.json"); p != "" {
		installDir = filepath.Dir(p)
	}
	var ce *jscompile.CompileError
	var mp *jscompile.MissingPackageError
	var missing string
	if errors.As(err, &mp) {
		missing = mp.Package
	}
	hint := npminstall.CompilerPackages(op, missing)
	install := fmt.Sprintf("run `%s` in %s", npminstall.AddCommand(npminstall.PackageManager(installDir, c.b.root), "-D "+hint), c.b.displayPath(installDir)+string(filepath.Separator))
	var text string
	loc := &api.Location{File: rel}
	switch {
	case errors.Is(err, jscompile.ErrNoNode):
		text = fmt.Sprintf("%s%s needs Node.js to compile, and node is not on PATH; install Node.js 20 or later, then %s", widget, what[op], install)
	case errors.As(err, &mp):
		text = fmt.Sprintf("%s%s needs the npm package %s, which is not installed for this widget; %s", widget, what[op], mp.Package, install)
	case errors.As(err, &ce):
		text = ce.Message
		if ce.File != "" && ce.File != file {
			text += " (in " + c.b.displayPath(ce.File) + ")"
		}
		if ce.Line == 0 && (ce.File == "" || ce.File == file) {
			ce.Line, ce.Column = locateQuoted(src, ce.Message)
		}
		if ce.Line > 0 && src != nil && (ce.File == "" || ce.File == file) {
			loc.Line = ce.Line
			loc.Column = max(ce.Column-1, 0)
			lines := strings.Split(string(src), "\n")
			if ce.Line <= len(lines) {
				loc.LineText = strings.TrimRight(lines[ce.Line-1], "\r")
			}
		}
	default:
		text = fmt.Sprintf("%s%s: %v", widget, what[op], err)
	}
	msg := api.Message{Text: text, Location: loc}
	if errors.As(err, &mp) && !errors.Is(err, jscompile.ErrNoNode) {
		msg.Detail = missingPackage{pkg: mp.Package, dir: installDir}
	}
	return api.OnLoadResult{Errors: []api.Message{msg}}
}

// quotedName is the `name` a compiler quotes in a message without a position
// (Tailwind: "Cannot apply unknown utility class `bg-x`").
var quotedName = regexp.MustCompile("`([^`\n]{1,200})`")

// locateQuoted finds the line and 1-based column of the first name quoted in
// msg within src, or 0, 0 when there is none or it does not occur.
func locateQuoted(src []byte, msg string) (line, col int) {
	m := quotedName.FindStringSubmatch(msg)
	if m == nil {
		return 0, 0
	}
	for i, l := range strings.Split(string(src), "\n") {
		if c := strings.Index(l, m[1]); c >= 0 {
			return i + 1, c + 1
		}
	}
	return 0, 0
}

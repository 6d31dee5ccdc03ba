// The widgetd Node helper: one long-lived process that runs the JavaScript-only
// compilers (Tailwind CSS, PostCSS, Vue, Svelte, Solid's Babel preset) for the
// Go build. Each compiler is loaded from the node_modules of the folder a
// request names, the way Node itself would resolve it from there.
//
// Protocol: one JSON object per line. Requests arrive on stdin:
//   {"id": 1, "op": "vue", "dir": "/abs/widget", "file": "/abs/App.vue", "source": "…", …}
// Responses go to file descriptor 3 (stdout is left to the compilers' own logging):
//   {"id": 1, "result": {…}}  or  {"id": 1, "error": {"message", "code", "package", "line", "column"}}
// The first line written is {"ready": true, "node": "<version>"}.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

// Compilers log warnings with console.log; keep fd 1 free of protocol anyway.
console.log = console.error;
console.info = console.error;

const out = fs.createWriteStream(null, { fd: 3 });
const send = (obj) => out.write(JSON.stringify(obj) + "\n");

// A package the request needs is not installed where it resolves from.
class MissingPackage extends Error {
  constructor(pkg, dir) {
    super(`cannot find package ${pkg} from ${dir}`);
    this.code = "missing-package";
    this.package = pkg;
  }
}

// A compiler rejected the source; line is 1-based, column 1-based.
class CompileError extends Error {
  constructor(message, line, column, file) {
    super(message);
    this.code = "compile";
    this.line = line;
    this.column = column;
    this.file = file;
  }
}

const modules = new Map(); // resolved file → module namespace

// load imports package spec as resolved from dir (createRequire from that
// folder; ESM-only packages through their "exports" import condition).
async function load(spec, dir, installName = spec) {
  const file = resolveFrom(spec, dir, installName);
  let mod = modules.get(file);
  if (!mod) {
    mod = loadFile(file);
    modules.set(file, mod);
  }
  return mod;
}

// loadFile requires a CommonJS file (faster than import() of it, which
// also parses it for named exports) and imports an ES module; either way the
// result looks like a module namespace: named exports plus default.
async function loadFile(file) {
  if (!file.endsWith(".mjs")) {
    try {
      const exports = createRequire(file)(file);
      // Node 22+ requires ES modules too, returning their namespace.
      if (exports && exports[Symbol.toStringTag] === "Module") return exports;
      return Object.assign(Object.create(null), exports, { default: exports });
    } catch (err) {
      if (!err || (err.code !== "ERR_REQUIRE_ESM" && err.code !== "ERR_REQUIRE_ASYNC_MODULE")) throw err;
    }
  }
  return import(pathToFileURL(file).href);
}

// resolveFrom resolves spec from dir, then the way the compilers' own
// plugins do: from each plugin package the project installed (pnpm keeps a
// package's dependencies out of the top of node_modules, in
// node_modules/.pnpm beside it, where only the package itself sees them).
function resolveFrom(spec, dir, installName) {
  for (const from of [dir, ...pluginDirs(dir)]) {
    const file = resolveIn(spec, from);
    if (file) return file;
  }
  throw new MissingPackage(installName, dir);
}

// resolveIn resolves spec as a module in folder from would, or null.
function resolveIn(spec, from) {
  const require = createRequire(path.join(from, "widgetd-resolve.js"));
  try {
    return require.resolve(spec);
  } catch (err) {
    if (err && err.code === "ERR_PACKAGE_PATH_NOT_EXPORTED") return resolveImportCondition(spec, from);
    return null;
  }
}

// The plugin packages that bring the compilers with them, as a project
// that builds with Vite (or PostCSS) installs them, and vite, which brings
// postcss and is itself a peer of each plugin.
const pluginPackages = ["@tailwindcss/vite", "@tailwindcss/postcss", "@vitejs/plugin-vue", "@sveltejs/vite-plugin-svelte", "vite-plugin-solid", "vue", "vite"];

// pluginDirs lists the real folders of the plugin packages installed where
// dir resolves packages from, and of the vite each of them sees.
function pluginDirs(dir) {
  const found = [];
  const add = (d) => d && !found.includes(d) && found.push(d);
  for (const name of pluginPackages) add(packageDir(name, dir));
  for (const d of [...found]) add(packageDir("vite", d));
  return found;
}

// packageDir is the real path of package name as Node finds it from dir
// (the node_modules of dir and its ancestors), or null.
function packageDir(name, dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    const candidate = path.join(d, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) {
      try {
        return fs.realpathSync(candidate);
      } catch {
        return null;
      }
    }
    if (path.dirname(d) === d) return null;
  }
}

// resolveImportCondition finds spec in an ancestor's node_modules and maps it
// through the package's "exports" with the import/default conditions.
function resolveImportCondition(spec, dir) {
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  const sub = "." + spec.slice(name.length);
  for (let d = dir; ; d = path.dirname(d)) {
    const pkgDir = path.join(d, "node_modules", name);
    const pkgFile = path.join(pkgDir, "package.json");
    if (fs.existsSync(pkgFile)) {
      const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8"));
      let target = pkg.exports && (typeof pkg.exports === "string" ? (sub === "." ? pkg.exports : null) : pkg.exports[sub]);
      while (target && typeof target === "object") {
        target = target.import ?? target.node ?? target.default ?? null;
      }
      return target ? path.join(pkgDir, target) : null;
    }
    if (path.dirname(d) === d) return null;
  }
}

const ops = {
  ping: async () => ({ node: process.version }),
  tailwind: compileTailwind,
  postcss: compilePostCSS,
  vue: compileVue,
  svelte: compileSvelte,
  solid: compileSolid,
  refresh: compileRefresh,
};
if (process.env.WIDGETD_JSCOMPILE_TEST === "1") {
  ops.sleep = (req) => new Promise((r) => setTimeout(() => r({ slept: req.ms }), req.ms));
  ops.crash = () => process.exit(7);
  ops.echo = async (req) => ({ source: req.source });
  ops.resolve = async (req) => ({ file: resolveFrom(req.spec, req.dir, req.spec) });
  ops.busy = async (req) => {
    const end = Date.now() + req.ms;
    while (Date.now() < end); // holds the event loop: stdin is not read
    return {};
  };
}

// ---- Tailwind CSS v4, as @tailwindcss/vite does it ----

const tailwindRoots = new Map(); // css file → {source, compiler, deps: Map<file, mtime>}

async function compileTailwind(req) {
  const node = await load("@tailwindcss/node", req.dir);
  const { Scanner } = await load("@tailwindcss/oxide", req.dir);
  const base = path.dirname(req.file);
  let root = tailwindRoots.get(req.file);
  if (!root || root.source !== req.source || depsChanged(root.deps)) {
    const deps = new Map();
    let compiler;
    try {
      compiler = await node.compile(req.source, {
        base,
        from: req.file,
        shouldRewriteUrls: true,
        onDependency: (file) => deps.set(file, mtime(file)),
      });
    } catch (err) {
      throw cssError(err, req);
    }
    root = { source: req.source, compiler, deps };
    tailwindRoots.set(req.file, root);
  }
  const { compiler } = root;
  const F = node.Features;
  if (!(compiler.features & (F.AtApply | F.JsPluginCompat | F.ThemeFunction | F.Utilities | F.Variants))) {
    return { css: req.source, tailwind: false, dependencies: [...root.deps.keys()] };
  }
  let candidates = [];
  let scanned = 0;
  if (compiler.features & F.Utilities) {
    // Auto-detection (no source(…)): the files the Go side found in the
    // widget's module graph (a folder there means "everything below it").
    const files = [];
    let sources = [];
    if (compiler.root === null) {
      for (const f of req.files || []) {
        if (isDir(f)) sources.push({ base: f, pattern: "**/*", negated: false });
        else files.push(f);
      }
    } else if (compiler.root !== "none") {
      sources.push({ ...compiler.root, negated: false });
    }
    sources = sources.concat(compiler.sources);
    const scanner = new Scanner({ sources });
    candidates = sources.length ? scanner.scan() : [];
    if (files.length) {
      candidates = candidates.concat(scanner.scanFiles(files.map((file) => ({ content: readText(file), extension: path.extname(file).slice(1) }))));
    }
    scanned = scanner.files.length + files.length;
  }
  // Same compiler, same candidates: same CSS (dev rebuilds after an edit
  // that adds no class skip build and optimize).
  const key = candidates.length + "\0" + candidates.join("\0");
  if (root.key === key) {
    return { css: root.css, tailwind: true, candidates: candidates.length, dependencies: [...root.deps.keys()], scanned };
  }
  let css = compiler.build(candidates);
  if (node.optimize) css = node.optimize(css, { minify: false }).code;
  root.key = key;
  root.css = css;
  return { css, tailwind: true, candidates: candidates.length, dependencies: [...root.deps.keys()], scanned };
}

function readText(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function isDir(file) {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function depsChanged(deps) {
  for (const [file, m] of deps) {
    if (m === null || mtime(file) !== m) return true;
  }
  return false;
}

// cssError turns a Tailwind or PostCSS exception into a CompileError with the
// position in the stylesheet when the compiler gave one.
function cssError(err, req) {
  if (err instanceof MissingPackage) return err;
  // An @import/@plugin of a package that is not installed.
  const missing = /Can't resolve '((?:@[^/'.][^/']*\/)?[^/'.][^/']*)[^']*'/.exec(String(err.message));
  if (missing) return new MissingPackage(missing[1], req.dir);
  const line = err.line ?? err.source?.start?.line ?? 0;
  const column = err.column ?? err.source?.start?.column ?? 0;
  return new CompileError(err.reason || err.message || String(err), line, column, err.file || req.file);
}

// ---- PostCSS (Tailwind v3 and any postcss.config.*) ----

async function compilePostCSS(req) {
  const postcss = (await load("postcss", req.dir)).default;
  let plugins = [];
  if (req.config) {
    let config = (await import(pathToFileURL(req.config).href + "?t=" + mtime(req.config))).default;
    if (typeof config === "function") config = await config({ env: "production", file: req.file });
    plugins = await postcssPlugins(config.plugins, path.dirname(req.config));
  } else if (req.tailwindConfig) {
    const tailwind = (await load("tailwindcss", req.dir)).default;
    plugins = [tailwind({ config: req.tailwindConfig })];
  }
  try {
    const result = await postcss(plugins).process(req.source, { from: req.file, to: req.file, map: false });
    const dependencies = result.messages.filter((m) => m.type === "dependency").map((m) => m.file);
    return { css: result.css, dependencies };
  } catch (err) {
    throw cssError(err, req);
  }
}

// postcssPlugins accepts the shapes postcss-load-config does: an array of
// plugins, or an object of plugin name → options (false disables).
async function postcssPlugins(plugins, dir) {
  if (!plugins) return [];
  if (Array.isArray(plugins)) return plugins.filter(Boolean);
  const list = [];
  for (const [name, options] of Object.entries(plugins)) {
    if (options === false) continue;
    const mod = await load(name, dir);
    const plugin = mod.default ?? mod;
    list.push(options && Object.keys(options).length ? plugin(options) : plugin(options === true ? undefined : options));
  }
  return list;
}

// ---- Vue 3 single-file components ----

async function compileVue(req) {
  let sfc;
  try {
    sfc = await load("vue/compiler-sfc", req.dir, "vue");
  } catch {
    sfc = await load("@vue/compiler-sfc", req.dir, "vue");
  }
  const withSourceMap = req.sourceMap === "1";
  const { descriptor, errors } = sfc.parse(req.source, { filename: req.file, sourceMap: withSourceMap });
  if (errors.length) throw vueError(errors[0], req.file);
  const id = req.scopeId;
  const scoped = descriptor.styles.some((s) => s.scoped);
  const lang = (descriptor.scriptSetup || descriptor.script)?.lang;
  const ts = lang === "ts" || lang === "tsx";
  let code = "";
  // The maps of the script and of a separate template, each of lines of
  // code (a template's follows the script's), joined below.
  const maps = [];
  try {
    if (descriptor.script || descriptor.scriptSetup) {
      const script = sfc.compileScript(descriptor, {
        id,
        isProd: true,
        inlineTemplate: !!descriptor.scriptSetup,
        genDefaultAs: "_sfc_main",
        sourceMap: withSourceMap,
        templateOptions: { scoped, compilerOptions: { scopeId: scoped ? `data-v-${id}` : undefined } },
      });
      code = script.content;
      maps.push({ line: 0, map: script.map });
    } else {
      code = "const _sfc_main = {};\n";
    }
    if (descriptor.template && !descriptor.scriptSetup) {
      const tpl = sfc.compileTemplate({
        source: descriptor.template.content,
        filename: req.file,
        id,
        scoped,
        isProd: true,
        inMap: descriptor.template.map,
        compilerOptions: { scopeId: scoped ? `data-v-${id}` : undefined },
      });
      if (tpl.errors.length) {
        const e = tpl.errors[0];
        const offset = descriptor.template.loc.start.line - 1;
        if (typeof e === "object" && e.loc) e.loc.start.line += offset;
        throw vueError(e, req.file);
      }
      code += "\n";
      maps.push({ line: lineCount(code), map: tpl.map });
      code += tpl.code.replace(/\nexport (function|const) (render|ssrRender)/, "\n$1 _sfc_$2") + "\n_sfc_main.render = _sfc_render;\n";
    }
  } catch (err) {
    throw vueError(err, req.file);
  }
  if (scoped) code += `\n_sfc_main.__scopeId = "data-v-${id}";\n`;
  code += "\nexport default _sfc_main;\n";
  let css = "";
  for (const style of descriptor.styles) {
    if (style.lang && style.lang !== "css" && style.lang !== "postcss") {
      throw new CompileError(`<style lang="${style.lang}"> is not supported; use plain CSS (or a .css file through PostCSS)`, style.loc.start.line, 1, req.file);
    }
    if (style.module) {
      throw new CompileError("<style module> is not supported; use <style scoped>, or import a .module.css file from the script", style.loc.start.line, 1, req.file);
    }
    const res = sfc.compileStyle({ source: style.content, filename: req.file, id: `data-v-${id}`, scoped: style.scoped, isProd: true });
    if (res.errors.length) throw vueError(res.errors[0], req.file, style.loc.start.line - 1);
    css += res.code + "\n";
  }
  if (withSourceMap) code = withMap(code, joinMaps(maps, path.basename(req.file), req.source));
  return { code, css, loader: ts ? "ts" : "js" };
}

// lineCount is the number of line breaks in text.
function lineCount(text) {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

// joinMaps joins the source maps of parts of one generated file, each
// {line, map} starting at its 0-based generated line and mapping into the
// one source file; the result names that file as esbuild reads it
// (relative to the compiled file's folder) with its content. Null when no
// part has a map.
function joinMaps(parts, sourceName, sourceContent) {
  const lines = [];
  const names = [];
  for (const { line, map } of parts) {
    if (!map || !map.mappings) continue;
    const nameBase = names.length;
    names.push(...(map.names || []));
    decodeMappings(map.mappings).forEach((segments, i) => {
      const at = line + i;
      while (lines.length <= at) lines.push([]);
      // Every source of a Vue part is the .vue file itself: index 0.
      for (const s of segments) lines[at].push(s.length === 5 ? [s[0], 0, s[2], s[3], s[4] + nameBase] : s.length === 4 ? [s[0], 0, s[2], s[3]] : s);
    });
  }
  if (!lines.length) return null;
  return { version: 3, sources: [sourceName], sourcesContent: [sourceContent], names, mappings: encodeMappings(lines) };
}

const base64Digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// decodeMappings reads a source map's "mappings" into lines of segments
// with absolute values: [column] or [column, source, line, column(, name)].
function decodeMappings(mappings) {
  const lines = [];
  const state = [0, 0, 0, 0, 0];
  for (const lineText of mappings.split(";")) {
    const segments = [];
    state[0] = 0;
    for (const segmentText of lineText.split(",")) {
      if (!segmentText) continue;
      const fields = [];
      let value = 0, shift = 0;
      for (const ch of segmentText) {
        const digit = base64Digits.indexOf(ch);
        if (digit < 0) throw new Error(`bad source map character ${JSON.stringify(ch)}`);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
          continue;
        }
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = shift = 0;
      }
      const segment = fields.map((delta, i) => (state[i] += delta));
      segments.push(segment);
    }
    lines.push(segments);
  }
  return lines;
}

// encodeMappings is decodeMappings' inverse.
function encodeMappings(lines) {
  const state = [0, 0, 0, 0, 0];
  return lines
    .map((segments) => {
      state[0] = 0;
      return segments
        .map((segment) =>
          segment
            .map((value, i) => {
              let delta = value - state[i];
              state[i] = value;
              let vlq = delta < 0 ? (-delta << 1) | 1 : delta << 1, text = "";
              do {
                const digit = vlq & 31;
                vlq >>>= 5;
                text += base64Digits[vlq ? digit | 32 : digit];
              } while (vlq);
              return text;
            })
            .join(""),
        )
        .join(",");
    })
    .join(";");
}

function vueError(err, file, lineOffset = 0) {
  if (err instanceof MissingPackage || err instanceof CompileError) return err;
  let message = String(err.message || err).replace(/^\[@?vue\/compiler-sfc\] /, "").split("\n")[0];
  let line = 0, column = 0;
  if (err.loc?.start) {
    line = err.loc.start.line + lineOffset;
    column = err.loc.start.column;
  } else {
    // Babel's parser (script blocks): "Unexpected token (3:11)", file-relative, 0-based column.
    const m = / \((\d+):(\d+)\)$/.exec(message);
    if (m) {
      line = +m[1];
      column = +m[2] + 1;
      message = message.slice(0, m.index);
    }
  }
  return new CompileError(message, line, column, file);
}

// withMap appends a compiler's source map to its code as an inline
// sourceMappingURL comment, which esbuild reads and chains into the build's
// own map (kept in memory for source positions; never written).
function withMap(code, map) {
  if (!map || !map.mappings) return code;
  const json = typeof map.toString === "function" && map.toString !== Object.prototype.toString ? map.toString() : JSON.stringify(map);
  return `${code}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(json).toString("base64")}\n`;
}

// ---- Svelte 5 ----

async function compileSvelte(req) {
  const mod = await load("svelte/compiler", req.dir, "svelte");
  const svelte = mod.compile ? mod : mod.default;
  try {
    const opts = { filename: req.file, generate: "client", dev: false };
    if (/\.svelte\.(js|ts)$/.test(req.file)) {
      const res = svelte.compileModule(req.source, opts);
      return { code: res.js.code, css: "", loader: "js" };
    }
    const res = svelte.compile(req.source, { ...opts, css: "external" });
    const warnings = (res.warnings || []).map((w) => ({
      message: `${w.message.split("\n")[0]} (svelte ${w.code})`,
      line: w.start ? w.start.line : 0,
      column: w.start ? w.start.column + 1 : 0,
    }));
    return { code: withMap(res.js.code, res.js.map), css: res.css ? res.css.code : "", loader: "js", warnings };
  } catch (err) {
    const start = err.start;
    const message = String(err.message || err).split("\n")[0];
    throw new CompileError(message, start ? start.line : 0, start ? start.column + 1 : 0, req.file);
  }
}

// ---- Solid (babel-preset-solid) ----

async function compileSolid(req) {
  const babel = await load("@babel/core", req.dir);
  const presetSolid = (await load("babel-preset-solid", req.dir)).default;
  const presets = [[presetSolid, { generate: "dom", hydratable: false }]];
  if (/\.tsx?$/.test(req.file) && !req.stripped) {
    presets.push([(await load("@babel/preset-typescript", req.dir)).default, { isTSX: true, allExtensions: true, onlyRemoveTypeImports: false }]);
  }
  try {
    const res = await (babel.transformAsync || babel.default.transformAsync)(req.source, {
      filename: req.file,
      presets,
      babelrc: false,
      configFile: false,
      // The map (chained through esbuild's, when it stripped the types
      // first) lets errors name the source line.
      sourceMaps: true,
      inputSourceMap: true,
      compact: false,
    });
    return { code: withMap(res.code, res.map), css: "", loader: "js" };
  } catch (err) {
    if (err instanceof MissingPackage) throw err;
    const message = String(err.reasonCode ? err.message.replace(/^[^:]*: /, "").replace(/ \(\d+:\d+\)[\s\S]*$/, "") : err.message).split("\n")[0];
    throw new CompileError(message, err.loc?.line ?? 0, err.loc ? err.loc.column + 1 : 0, req.file);
  }
}

// ---- React Refresh (react-refresh/babel), widgetd dev only ----

// compileRefresh runs react-refresh's Babel plugin over a JSX module (its
// TypeScript already stripped by esbuild, JSX kept), as @vitejs/plugin-react
// does in Vite's dev server: components are registered with the runtime under
// "<refreshId> <name>" and hooks get signatures, so a re-run module updates
// the mounted components in place. The registration functions are module
// locals that reach the runtime widgetd dev injects (window.__widgetdRefresh)
// and do nothing without it. JSX stays for esbuild (loader "jsx").
async function compileRefresh(req) {
  const babel = await load("@babel/core", req.dir);
  const plugin = (await load("react-refresh/babel", req.dir, "react-refresh")).default;
  try {
    const res = await (babel.transformAsync || babel.default.transformAsync)(req.source, {
      filename: req.file,
      plugins: [[plugin, { skipEnvCheck: true }]],
      parserOpts: { plugins: ["jsx"] },
      babelrc: false,
      configFile: false,
      sourceMaps: true,
      inputSourceMap: true,
      compact: false,
    });
    const id = JSON.stringify(req.refreshId);
    const prelude =
      `var $RefreshReg$ = function (type, id) { var r = window.__widgetdRefresh; if (r) r.register(type, ${id} + " " + id); };\n` +
      `var $RefreshSig$ = function () { var r = window.__widgetdRefresh; return r ? r.signature() : function (type) { return type; }; };\n`;
    // The prelude is one line per statement, prepended: the map's lines
    // shift by two, which ";;" at the start of its mappings accounts for.
    const map = res.map ? { ...res.map, mappings: ";;" + res.map.mappings } : null;
    return { code: withMap(prelude + res.code, map), css: "", loader: "jsx" };
  } catch (err) {
    if (err instanceof MissingPackage) throw err;
    const message = String(err.reasonCode ? err.message.replace(/^[^:]*: /, "").replace(/ \(\d+:\d+\)[\s\S]*$/, "") : err.message).split("\n")[0];
    throw new CompileError(message, err.loc?.line ?? 0, err.loc ? err.loc.column + 1 : 0, req.file);
  }
}

// ---- the loop ----

async function handle(req) {
  const op = ops[req.op];
  if (!op) return send({ id: req.id, error: { code: "bad-request", message: `unknown op ${JSON.stringify(req.op)}` } });
  try {
    send({ id: req.id, result: await op(req) });
  } catch (err) {
    send({
      id: req.id,
      error: {
        code: err.code === "missing-package" || err.code === "compile" ? err.code : "internal",
        message: String(err && err.message ? err.message : err),
        package: err.package,
        file: err.file,
        line: err.line,
        column: err.column,
        stack: err.code ? undefined : String(err.stack || ""),
      },
    });
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return send({ id: 0, error: { code: "bad-request", message: "request is not JSON" } });
  }
  handle(req);
});
rl.on("close", () => out.end(() => process.exit(0)));
send({ ready: true, node: process.version });

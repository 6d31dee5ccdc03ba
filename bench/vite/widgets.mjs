// Shared Vite settings for bench/compare: how the ecosystem builds one widget
// with Vite, in two modes.
//
//   singlefile: vite build + vite-plugin-singlefile, one self-contained HTML
//               file (the official MCP Apps examples, ext-apps examples/*).
//   external:   vite build with hashed external JS/CSS under assets/ (how
//               OpenAI's apps-sdk examples ship: HTML shell + <name>-<hash>.js/.css).
//
// Widgets are read from widgetd-style folders (widget.json + sources). An HTML
// entry is built from its own HTML with the widget folder as Vite root; a
// script entry gets a small HTML shell like widgetd's default (<div id="root">).
// `import ... from "widgetd"` resolves to the same bridge sources widgetd
// compiles, so both tools bundle the same code.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, "../..");
const bridge = path.join(repo, "bundler/bridge/src");

// widgetd's script-entry candidates, in its order (bundler/config.go).
const scriptEntries = ["index.tsx", "index.ts", "index.jsx", "index.js", "src/index.tsx", "src/index.ts", "src/index.jsx", "src/index.js", "src/main.tsx", "src/main.ts", "src/main.jsx", "src/main.js"];

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

// widgetInput returns { name, root, input } for one widget folder, writing an
// HTML shell under bench/vite/.shells/<mode>/<name>/ for script entries.
export function widgetInput(widgetDir, mode) {
  widgetDir = path.resolve(widgetDir);
  const name = path.basename(widgetDir);
  const cfg = JSON.parse(fs.readFileSync(path.join(widgetDir, "widget.json"), "utf8"));
  let entry = cfg.entry;
  if (!entry) {
    entry = ["index.html", ...scriptEntries].find((e) => fs.existsSync(path.join(widgetDir, e)));
  }
  if (!entry) throw new Error(`${widgetDir}: no entry`);
  if (entry.endsWith(".html")) {
    return { name, root: widgetDir, input: path.join(widgetDir, entry) };
  }
  const root = path.join(here, ".shells", mode, name);
  fs.mkdirSync(root, { recursive: true });
  const src = path.relative(root, path.join(widgetDir, entry)).split(path.sep).join("/");
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><title>${esc(cfg.title ?? name)}</title></head>` +
    `<body><div id="root"></div><script type="module" src="${src}"></script></body></html>\n`;
  const input = path.join(root, "index.html");
  fs.writeFileSync(input, html);
  return { name, root, input };
}

// viteConfig is the inline Vite config for one widget in one mode. tools
// holds the plugin factories of the Vite installation in use ({ react,
// viteSingleFile }), so the same settings serve Vite 8 (here) and Vite 7 (v7/).
export function viteConfig({ root, input }, mode, outDir, tools) {
  const { react, viteSingleFile } = tools;
  return {
    configFile: false,
    root,
    base: "./",
    logLevel: "warn",
    cacheDir: path.join(tools.dir, "node_modules/.vite"),
    plugins: mode === "singlefile" ? [react(), viteSingleFile()] : [react()],
    resolve: {
      alias: [
        { find: /^widgetd$/, replacement: path.join(bridge, "index.ts") },
        { find: /^widgetd\/react$/, replacement: path.join(bridge, "react.ts") },
      ],
      // One React for the widget and widgetd/react (same version as
      // widgets/package-lock.json, pinned in this package.json).
      dedupe: ["react", "react-dom"],
    },
    build: {
      outDir,
      emptyOutDir: true,
      // Vite's default prints gzip sizes of every chunk; off so Vite's time
      // is not charged for a report (this favours Vite).
      reportCompressedSize: false,
      rollupOptions: { input },
    },
  };
}

// main is build.mjs for one Vite installation: `node build.mjs
// singlefile|external OUTDIR WIDGET_DIR...` builds every widget folder with one
// vite.build() each, in one Node process (like OpenAI's build-all.mts), into
// OUTDIR/<widget>/, then prints one JSON line with the in-process time
// (bench/compare times the whole process itself).
export async function main(argv, tools) {
  const [mode, outDir, ...widgets] = argv;
  if (!["singlefile", "external"].includes(mode) || !outDir || widgets.length === 0) {
    console.error("usage: node build.mjs singlefile|external OUTDIR WIDGET_DIR...");
    process.exit(2);
  }
  const start = performance.now();
  for (const dir of widgets) {
    const w = widgetInput(dir, mode);
    await tools.build(viteConfig(w, mode, path.resolve(outDir, w.name), tools));
  }
  console.log(JSON.stringify({ vite: tools.version, mode, widgets: widgets.length, ms: Math.round(performance.now() - start) }));
}

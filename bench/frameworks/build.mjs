// Builds the benchmark widgets with Vite 8 the way their authors would:
// @tailwindcss/vite + @vitejs/plugin-react for the Tailwind widget,
// @vitejs/plugin-vue for the Vue one. One process builds both, like one
// `widgetd build`.
//
//   node build.mjs <widgets-dir> <out-dir>            one production build
//   node build.mjs <widgets-dir> <out-dir> --watch <file>
//       vite build --watch: after the first build, appends a comment to
//       <file> and prints the time to the rebuild that follows, in ms.
import { build } from "vite";
import path from "node:path";
import fs from "node:fs";
import react from "@vitejs/plugin-react";
import vue from "@vitejs/plugin-vue";
import tailwindcss from "@tailwindcss/vite";

const [widgetsDir, outDir, flag, editFile] = process.argv.slice(2);
const widgets = {
  "tw-dashboard": () => [tailwindcss(), react()],
  "vue-board": () => [vue()],
};

function config(name, watch) {
  return {
    root: path.resolve(widgetsDir, name),
    configFile: false,
    logLevel: "silent",
    plugins: widgets[name](),
    build: { outDir: path.resolve(outDir, name), emptyOutDir: true, watch: watch ? {} : null },
  };
}

if (flag !== "--watch") {
  for (const name of Object.keys(widgets)) await build(config(name, false));
} else {
  const name = Object.keys(widgets).find((n) => path.resolve(editFile).startsWith(path.resolve(widgetsDir, n) + path.sep));
  const watcher = await build(config(name, true));
  let edited = 0;
  watcher.on("event", (e) => {
    if (e.code === "ERROR") {
      console.error(e.error);
      process.exit(1);
    }
    if (e.code !== "END") return;
    if (!edited) {
      edited = performance.now();
      fs.appendFileSync(editFile, editFile.endsWith(".vue") ? "\n<!-- edit -->\n" : "\n// edit\n");
      return;
    }
    console.log((performance.now() - edited).toFixed(1));
    watcher.close().then(() => process.exit(0));
  });
}

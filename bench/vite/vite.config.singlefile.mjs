// `vite build -c vite.config.singlefile.mjs` for one widget folder, for trying the
// singlefile pipeline by hand: WIDGET=../../widgets/weather npx vite build -c vite.config.singlefile.mjs
// (output in out/singlefile/<widget>). bench/compare uses build.mjs, which applies
// the same settings (widgets.mjs) to every widget in one process.
import path from "node:path";
import react from "@vitejs/plugin-react";
import { viteSingleFile } from "vite-plugin-singlefile";
import { here, viteConfig, widgetInput } from "./widgets.mjs";

const w = widgetInput(process.env.WIDGET ?? "../../widgets/hello", "singlefile");
const { configFile, ...config } = viteConfig(w, "singlefile", path.join(here, "out/singlefile", w.name), { react, viteSingleFile, dir: here });
export default config;

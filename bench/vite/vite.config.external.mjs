// `vite build -c vite.config.external.mjs` for one widget folder, for trying the
// external pipeline by hand: WIDGET=../../widgets/weather npx vite build -c vite.config.external.mjs
// (output in out/external/<widget>). bench/compare uses build.mjs, which applies
// the same settings (widgets.mjs) to every widget in one process.
import path from "node:path";
import react from "@vitejs/plugin-react";
import { viteSingleFile } from "vite-plugin-singlefile";
import { here, viteConfig, widgetInput } from "./widgets.mjs";

const w = widgetInput(process.env.WIDGET ?? "../../widgets/hello", "external");
const { configFile, ...config } = viteConfig(w, "external", path.join(here, "out/external", w.name), { react, viteSingleFile, dir: here });
export default config;

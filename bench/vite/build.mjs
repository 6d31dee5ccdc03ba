// Builds widgetd-style widget folders with this folder's Vite (see widgets.mjs):
//
//   node build.mjs singlefile|external OUTDIR WIDGET_DIR...
import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { build, version } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";
import { main } from "./widgets.mjs";

const dir = path.dirname(fileURLToPath(import.meta.url));
await main(process.argv.slice(2), { build, version, react, viteSingleFile, dir });

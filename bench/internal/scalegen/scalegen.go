// Package scalegen writes generated widgetd projects of any size for the
// scaling benchmarks (bench/scale, bench/devloop -scale).
package scalegen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Generate writes a widgetd project of n widgets under root: widgets/<name>/
// folders alternating React (TSX + CSS module + global CSS, React from
// nodeModules) and dependency-free TypeScript (TS + CSS), every one importing
// the same shared helpers (widgets/shared/, not a widget) and the widgetd
// bridge, each with a little code of its own so no two bundles are equal.
// Widget 0 is React; EditWidget names it and EditFile is the file the
// one-widget edit changes. The content depends only on n.
func Generate(root string, n int, nodeModules string) error {
	w := filepath.Join(root, "widgets")
	if err := os.MkdirAll(filepath.Join(w, "shared"), 0o755); err != nil {
		return err
	}
	if err := os.Symlink(nodeModules, filepath.Join(w, "node_modules")); err != nil {
		return err
	}
	// A node_modules linking outside the project needs allowOutside.
	if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(fmt.Sprintf(`{"allowOutside": [%q]}`, nodeModules)), 0o644); err != nil {
		return err
	}
	files := map[string]string{
		"widgets/tsconfig.json":    tsconfig,
		"widgets/shared/format.ts": sharedFormat,
		"widgets/shared/theme.css": sharedTheme,
		"widgets/shared/assets.d.ts": `declare module "*.module.css" {
  const classes: Record<string, string>;
  export default classes;
}
`,
	}
	for i := 0; i < n; i++ {
		name := WidgetName(i)
		dir := "widgets/" + name + "/"
		files[dir+"widget.json"] = fmt.Sprintf(`{
  "title": "Widget %d",
  "description": "Generated widget %d of %d for bench/scale.",
  "widgetDescription": "Shows the items the tool returned."
}
`, i, i, n)
		if i%2 == 0 {
			files[dir+"src/index.tsx"] = reactIndex
			files[dir+"src/App.tsx"] = reactApp(i)
			files[dir+"src/App.module.css"] = reactCSS(i)
		} else {
			files[dir+"index.ts"] = vanillaIndex(i)
			files[dir+"style.css"] = vanillaCSS(i)
		}
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// WidgetName is the name of widget i.
func WidgetName(i int) string { return fmt.Sprintf("w%04d", i) }

// EditWidget is the widget the one-widget edit changes (a React widget).
const EditWidget = "w0000"

// EditFile is the file changed by the one-widget edit, relative to the root.
var EditFile = filepath.Join("widgets", EditWidget, "src", "App.tsx")

// EditMarker is text in editFile that an edit prefixes.
const EditMarker = `<h1 className={styles.title}>`

const tsconfig = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2022", "DOM", "DOM.Iterable"],
    "module": "ESNext",
    "moduleResolution": "bundler",
    "jsx": "react-jsx",
    "strict": true,
    "noEmit": true,
    "isolatedModules": true
  }
}
`

const sharedFormat = `// Helpers every generated widget shares.
export interface Item {
  id: string;
  label: string;
  value: number;
}

export function formatValue(value: number, unit = ""): string {
  const fixed = Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
  return unit ? fixed + " " + unit : fixed;
}

export function sortItems(items: Item[], by: "label" | "value"): Item[] {
  return [...items].sort((a, b) => (by === "label" ? a.label.localeCompare(b.label) : b.value - a.value));
}

export function total(items: Item[]): number {
  return items.reduce((sum, item) => sum + item.value, 0);
}

export function escapeHTML(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}
`

const sharedTheme = `:root {
  color-scheme: light dark;
  font-family: var(--font-sans, system-ui, sans-serif);
}
body {
  margin: 0;
}
`

const reactIndex = `import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import "../../shared/theme.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`

func reactApp(i int) string {
	return strings.ReplaceAll(`import { useState } from "react";
import { useToolOutput } from "widgetd/react";
import { formatValue, sortItems, total, type Item } from "../../shared/format";
import styles from "./App.module.css";

interface Output {
  title?: string;
  items?: Item[];
}

export function App() {
  const output = useToolOutput<Output>();
  const [by, setBy] = useState<"label" | "value">("value");
  if (!output) {
    return <p className={styles.loading}>Waiting for widget @N@…</p>;
  }
  const items = sortItems(output.items ?? [], by);
  return (
    <section className={styles.card}>
      <h1 className={styles.title}>{output.title ?? "Widget @N@"}</h1>
      <button className={styles.sort} onClick={() => setBy(by === "label" ? "value" : "label")}>
        Sort by {by === "label" ? "value" : "label"}
      </button>
      <ul className={styles.items}>
        {items.map((item) => (
          <li key={item.id} className={styles.item}>
            <span>{item.label}</span>
            <span>{formatValue(item.value * @N@)}</span>
          </li>
        ))}
      </ul>
      <p className={styles.total}>Total: {formatValue(total(items))}</p>
    </section>
  );
}
`, "@N@", fmt.Sprint(i))
}

func reactCSS(i int) string {
	return fmt.Sprintf(`.card {
  padding: 16px;
  border-radius: 12px;
  background: hsl(%d 60%% 96%%);
}
.title {
  margin: 0 0 8px;
  font-size: 1.25rem;
}
.loading {
  opacity: 0.7;
}
.sort {
  margin-bottom: 8px;
}
.items {
  display: grid;
  gap: 4px;
  margin: 0;
  padding: 0;
  list-style: none;
}
.item {
  display: flex;
  justify-content: space-between;
}
.total {
  font-weight: 600;
}
`, i%360)
}

func vanillaIndex(i int) string {
	return strings.ReplaceAll(`import { widget } from "widgetd";
import { escapeHTML, formatValue, sortItems, type Item } from "../shared/format";
import "../shared/theme.css";
import "./style.css";

interface Output {
  title?: string;
  items?: Item[];
}

const root = document.getElementById("root")!;
root.innerHTML = '<div class="w@N@"><h1 class="w@N@__title">Widget @N@</h1><ul class="w@N@__items"></ul></div>';
const title = root.querySelector<HTMLElement>(".w@N@__title")!;
const list = root.querySelector<HTMLElement>(".w@N@__items")!;

widget.onToolResult((result) => {
  const data = (result.structuredContent ?? {}) as Output;
  title.textContent = data.title ?? "Widget @N@";
  list.innerHTML = sortItems(data.items ?? [], "value")
    .map((item) => "<li>" + escapeHTML(item.label) + ": " + formatValue(item.value + @N@) + "</li>")
    .join("");
});
`, "@N@", fmt.Sprint(i))
}

func vanillaCSS(i int) string {
	return strings.ReplaceAll(fmt.Sprintf(`.w@N@ {
  padding: 16px;
  border: 1px solid hsl(%d 40%% 80%%);
}
.w@N@__title {
  margin: 0 0 8px;
}
.w@N@__items {
  margin: 0;
  padding-left: 20px;
}
`, i%360), "@N@", fmt.Sprint(i))
}

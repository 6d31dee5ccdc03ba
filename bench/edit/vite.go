package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/bench/internal/benchenv"
	"github.com/widgetd/widgetd/scaffold"
)

// The peer: the React template's App.tsx and index.tsx as a Vite app, with
// @vitejs/plugin-react (React Refresh) on Vite's dev server. "widgetd" and
// "widgetd/react" are stubs that return the fixture's tool output at once
// (Vite has no host and no bridge), so the component tree is the same.
const (
	viteIndex = `<!doctype html><html><head><meta charset="utf-8"><title>hello</title></head>
<body><div id="root"></div><script type="module" src="/index.tsx"></script></body></html>
`
	viteStub      = "export const widget = { callTool: async () => ({ structuredContent: { name: \"again\" } }) };\n"
	viteReactStub = "export function useToolOutput() { return { name: \"Ada\" }; }\n"
	viteConfig    = `import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
export default {
  plugins: [react()],
  logLevel: "warn",
  resolve: { alias: [{ find: /^widgetd\/react$/, replacement: here("./stub-react.ts") }, { find: /^widgetd$/, replacement: here("./stub.ts") }] },
  server: { fs: { allow: [here("..")] } },
};
`
)

// runVite writes the React template as a Vite app in a folder below
// bench/edit (so node_modules resolves as in a real project), starts
// `vite` on a free port, and measures the same edit as the react case.
func runVite(tab context.Context, nm string, edits, warmup int, pause time.Duration) ([]time.Duration, error) {
	dir, err := os.MkdirTemp(filepath.Dir(nm), "vite-app-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	tmp, err := os.MkdirTemp("", "widgetd-bench-edit-vite-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if _, err := scaffold.Init(scaffold.InitOptions{Dir: tmp, Template: "react"}); err != nil {
		return nil, err
	}
	src := filepath.Join(tmp, "widgets", scaffold.DefaultWidget)
	files := map[string]string{"index.html": viteIndex, "stub.ts": viteStub, "stub-react.ts": viteReactStub, "vite.config.mjs": viteConfig}
	for _, f := range []string{"index.tsx", "App.tsx", "style.css"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return nil, err
		}
		files[f] = string(data)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	port, err := benchenv.FreePort()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	cmd := exec.Command("node", filepath.Join(nm, "vite", "bin", "vite.js"), "--port", fmt.Sprint(port), "--strictPort", "--host", "127.0.0.1")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	if err := waitHTTP(url, 60*time.Second); err != nil {
		return nil, fmt.Errorf("vite did not start: %w\n%s", err, out.String())
	}
	pctx, pcancel := chromedp.NewContext(tab, chromedp.WithNewBrowserContext())
	defer pcancel()
	if err := openObserved(pctx, url); err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "App.tsx")
	orig := files["App.tsx"]
	mark := templateEdit["react"][1]
	return measure(pctx, edits, warmup, pause, func(n int) error {
		body := strings.Replace(orig, mark, strings.TrimSuffix(mark, "Hello, ")+fmt.Sprintf("Edit %d Hello, ", n), 1)
		return os.WriteFile(file, []byte(body), 0o644)
	})
}

// waitHTTP polls url until it answers 200.
func waitHTTP(url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		r, err := http.Get(url)
		if err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("HTTP %d", r.StatusCode)
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

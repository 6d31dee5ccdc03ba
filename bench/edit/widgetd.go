package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/scaffold"
)

// templateEdit is, per template, the file edited and the text the edit
// prefixes with "Edit N ".
var templateEdit = map[string][2]string{
	"vanilla": {"index.ts", "title.textContent = `Hello, "},
	"react":   {"App.tsx", `<h1 className="greeting">Hello, `},
}

// runWidgetd measures `widgetd dev` over a project `widgetd init --template
// tmpl` writes, with bench/edit's node_modules linked in (React,
// react-refresh and @babel/core, so the React template gets React Refresh).
func runWidgetd(tab context.Context, tmpl, nm string, edits, warmup int, pause time.Duration) ([]time.Duration, error) {
	root, err := os.MkdirTemp("", "widgetd-bench-edit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(root)
	if _, err := scaffold.Init(scaffold.InitOptions{Dir: root, Template: tmpl}); err != nil {
		return nil, err
	}
	widgets := filepath.Join(root, "widgets")
	if tmpl == "react" {
		if err := os.Symlink(nm, filepath.Join(widgets, "node_modules")); err != nil {
			return nil, err
		}
		// A node_modules linking outside the project is read only from a
		// folder named in allowOutside.
		if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(fmt.Sprintf(`{"allowOutside": [%q]}`, nm)), 0o644); err != nil {
			return nil, err
		}
	}
	e := templateEdit[tmpl]
	file := filepath.Join(widgets, scaffold.DefaultWidget, e[0])
	orig, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(string(orig), e[1]) {
		return nil, fmt.Errorf("%s lacks %q; update the benchmark's edit", file, e[1])
	}
	s, err := devserver.New(devserver.Options{Root: root, WidgetsDir: widgets, Addr: "127.0.0.1:0", Log: io.Discard})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() { cancel(); <-done }()

	pctx, pcancel := chromedp.NewContext(tab, chromedp.WithNewBrowserContext())
	defer pcancel()
	if err := openObserved(pctx, s.PreviewURL()+"preview/"+scaffold.DefaultWidget); err != nil {
		return nil, err
	}
	return measure(pctx, edits, warmup, pause, func(n int) error {
		body := strings.Replace(string(orig), e[1], strings.TrimSuffix(e[1], "Hello, ")+fmt.Sprintf("Edit %d Hello, ", n), 1)
		return os.WriteFile(file, []byte(body), 0o644)
	})
}

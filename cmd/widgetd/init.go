package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/internal/scaffold"
)

func templateHelp() string {
	var b strings.Builder
	for _, t := range scaffold.Templates {
		fmt.Fprintf(&b, "  %-15s %s\n", t.Name, t.Description)
	}
	return b.String()
}

// runInit scaffolds a new project.
func runInit(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("init", "[dir]",
		"Writes a widget project into dir (default: the current folder): widgets/<name>/ with\n"+
			"widget.json, sources and fixtures, tsconfig.json, widgetd.d.ts, the JSON Schemas,\n"+
			"package.json when the template needs npm packages, and optionally a Go MCP server.\n"+
			"Nothing is overwritten. Templates:\n"+
			templateHelp()+
			"--module and --replace apply with --server go.\n", stdout, stderr)
	var o scaffold.InitOptions
	fs.StringVar(&o.Template, "template", "vanilla", "widget `template` (listed above)")
	fs.StringVar(&o.Widget, "widget", scaffold.DefaultWidget, "`name` of the first widget")
	fs.StringVar(&o.Server, "server", "", "`kind` of MCP server to write too; go: a Go server that embeds the widgets (go:embed, official go-sdk)")
	fs.StringVar(&o.Domain, "domain", "", "the widgets' ChatGPT domain, an HTTPS `origin` you own (default https://<folder>.example.com)")
	fs.StringVar(&o.Module, "module", "", "Go module `path` of the server (default example.com/<folder>)")
	fs.StringVar(&o.Replace, "replace", "", "widgetd checkout `dir` the server's go.mod uses (replace directive); widgetd is not on a module proxy yet")
	dir, code, ok := fs.parseOneArg(args)
	if !ok {
		return code
	}
	if dir == "" {
		dir = "."
	}
	o.Dir = dir
	res, err := scaffold.Init(o)
	if err != nil {
		fmt.Fprintf(stderr, "widgetd init: %v\n", err)
		return exitError
	}
	for _, f := range res.Files {
		fmt.Fprintf(stdout, "  %s\n", filepath.Join(dir, f))
	}
	fmt.Fprintf(stdout, "\nwrote %d files. Next:\n", len(res.Files))
	if dir != "." {
		fmt.Fprintf(stdout, "  cd %s\n", dir)
	}
	if res.NPM {
		fmt.Fprintf(stdout, "  (cd %s && npm install)      # the template's npm packages; commit the package-lock.json it writes\n", res.NPMDir)
	}
	if o.Server == "go" {
		if o.Replace == "" {
			fmt.Fprintln(stdout, "  go mod edit -replace github.com/widgetd/widgetd=/path/to/widgetd   # widgetd is not on a module proxy yet")
		}
		fmt.Fprintln(stdout, "  go mod tidy && go generate && go test ./...   # go tool widgetd build, then the server's own test")
		fmt.Fprintln(stdout, "  widgetd dev --mcp http://localhost:8000/mcp & go run .")
	} else {
		fmt.Fprintln(stdout, "  widgetd dev      # preview every widget × fixture under both hosts")
	}
	fmt.Fprintln(stdout, "  widgetd test     # render every widget × fixture × host headless; --update accepts screenshots")
	fmt.Fprintln(stdout, "  widgetd build    # dist/ for widgetd serve or go:embed")
	if o.Domain == "" {
		fmt.Fprintln(stdout, "Before submitting to ChatGPT, set \"domain\" in widget.json to your app's own HTTPS origin.")
	}
	return exitOK
}

// runNew adds a widget to the project.
func runNew(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("new", "<name>",
		"Adds widgets/<name>/ (widget.json, sources, fixtures) from a template. Templates:\n"+
			templateHelp(), stdout, stderr)
	tmpl := fs.String("template", "vanilla", "widget `template` (listed above)")
	widgets := fs.String("widgets", "widgets", "widgets `dir`")
	name, code, ok := fs.parseOneArg(args)
	if !ok {
		return code
	}
	if name == "" {
		fmt.Fprintln(stderr, "widgetd new: name the widget: widgetd new <name>")
		return exitUsage
	}
	res, err := scaffold.New(*widgets, name, *tmpl)
	if err != nil {
		fmt.Fprintf(stderr, "widgetd new: %v\n", err)
		return exitError
	}
	for _, f := range res.Files {
		fmt.Fprintf(stdout, "  %s\n", filepath.Join(*widgets, f))
	}
	switch {
	case res.PackageJSON:
		fmt.Fprintf(stdout, "\nThe %s template needs npm packages: (cd %s && npm install), and commit package-lock.json\n", *tmpl, *widgets)
	case res.NPM:
		fmt.Fprintf(stdout, "\nThe %s template needs npm packages; if %s/package.json lacks them: (cd %s && %s)\n", *tmpl, *widgets, *widgets, res.Install)
	}
	fmt.Fprintf(stdout, "\nwidgetd dev previews it; widgetd test renders its fixtures.\n")
	return exitOK
}

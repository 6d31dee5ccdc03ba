package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/scaffold"
)

func templateHelp() string {
	var b strings.Builder
	for _, t := range scaffold.Templates {
		fmt.Fprintf(&b, "  %-15s %s\n", t.Name, t.Description)
	}
	return b.String()
}

// runInit scaffolds a new project.
func runInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("init", "[dir]",
		"Writes a widget project into dir (default: the current folder): widgets/<name>/ with\n"+
			"widget.json, sources and fixtures, tsconfig.json, widgetd.d.ts, the JSON Schemas,\n"+
			"package.json when the template needs npm packages, and optionally a Go MCP server.\n"+
			"Nothing is overwritten: --server go in a project with widgets/ adds the server,\n"+
			"keeping existing files. Templates:\n"+
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
	printWritten(stdout, dir, res)
	built := false
	if o.Server == "go" {
		if built, err = buildServerDist(ctx, dir, stdout); err != nil {
			printError(stderr, err)
			fmt.Fprintf(stderr, "widgetd init: the server was written but dist/ was not built; fix the widget, then run go generate\n")
			return exitError
		}
	}
	printNext(stdout, dir, o, res, built)
	return exitOK
}

// printWritten lists what init wrote, kept and merged.
func printWritten(stdout io.Writer, dir string, res *scaffold.Result) {
	for _, f := range res.Files {
		fmt.Fprintf(stdout, "  %s\n", filepath.Join(dir, f))
	}
	for _, f := range res.Merged {
		fmt.Fprintf(stdout, "  %s (lines added)\n", filepath.Join(dir, f))
	}
	for _, f := range res.Kept {
		fmt.Fprintf(stdout, "  %s (exists, kept as it is)\n", filepath.Join(dir, f))
	}
	fmt.Fprintf(stdout, "\nwrote %d files", len(res.Files))
	if res.Widget != "" && len(res.Kept) > 0 {
		fmt.Fprintf(stdout, "; the server's tool shows widget %q", res.Widget)
	}
	fmt.Fprintln(stdout, ".")
}

// buildServerDist builds a Go server project's dist/, which main.go embeds
// and the project commits, so the server builds before any go generate. A
// project whose widgets need npm packages that are not installed yet is
// left for go generate after npm install (built false).
func buildServerDist(ctx context.Context, dir string, stdout io.Writer) (built bool, err error) {
	widgets := filepath.Join(dir, "widgets")
	if fileExists(filepath.Join(widgets, "package.json")) && !fileExists(filepath.Join(widgets, "node_modules")) {
		return false, nil
	}
	res, err := bundler.Build(ctx, bundler.Options{Root: dir})
	if err != nil {
		return false, err
	}
	fmt.Fprintf(stdout, "built %s (%d widget(s)) for main.go's go:embed; commit it with the sources\n", filepath.Join(dir, "dist"), len(res.Widgets))
	return true, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// printNext prints the commands a user pastes next, comments aligned. A Go
// server project runs the widgetd its go.mod pins (go tool widgetd); the
// server and widgetd dev each hold a terminal.
func printNext(stdout io.Writer, dir string, o scaffold.InitOptions, res *scaffold.Result, built bool) {
	var steps [][2]string
	if dir != "." {
		steps = append(steps, [2]string{"cd " + dir})
	}
	if res.NPM {
		steps = append(steps, [2]string{"(cd " + res.NPMDir + " && npm install)", "the template's npm packages; commit the package-lock.json it writes"})
	} else if o.Server == "go" && !built {
		steps = append(steps, [2]string{"(cd widgets && npm install)", "the widgets' npm packages, which the build needs"})
	}
	widgetd := "widgetd"
	if o.Server == "go" {
		widgetd = "go tool widgetd"
		if o.Replace == "" {
			steps = append(steps, [2]string{"go mod edit -replace github.com/widgetd/widgetd=/path/to/widgetd", "widgetd is not on a module proxy yet"})
		}
		if built {
			steps = append(steps, [2]string{"go mod tidy && go test ./...", "dist/ is built; after changing widgets/, go generate rebuilds it: commit it"})
		} else {
			steps = append(steps, [2]string{"go mod tidy && go generate && go test ./...", "go generate builds dist/ (go tool widgetd build): commit it"})
		}
		steps = append(steps,
			[2]string{"go run .", "terminal 1: the MCP server at http://localhost:8000/mcp"},
			[2]string{"go tool widgetd dev --mcp http://localhost:8000/mcp", "terminal 2: preview; the widget's tool calls reach the server"})
	} else {
		steps = append(steps, [2]string{"widgetd dev", "preview every widget × fixture under both hosts"})
	}
	steps = append(steps,
		[2]string{widgetd + " test", "render every widget × fixture × host headless; --update accepts screenshots"},
		[2]string{widgetd + " build", "dist/ for widgetd serve or go:embed"})
	width := 0
	for _, s := range steps {
		width = max(width, len(s[0]))
	}
	fmt.Fprintln(stdout, "Next:")
	for _, s := range steps {
		if s[1] == "" {
			fmt.Fprintf(stdout, "  %s\n", s[0])
			continue
		}
		fmt.Fprintf(stdout, "  %-*s   # %s\n", width, s[0], s[1])
	}
	if o.Domain == "" {
		fmt.Fprintln(stdout, "Before submitting to ChatGPT, set \"domain\" in widget.json to your app's own HTTPS origin.")
	}
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

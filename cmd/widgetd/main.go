// Command widgetd builds MCP Apps / ChatGPT Apps widgets into content-hashed,
// precompressed UI resources, serves them as a CDN origin, and checks them
// the way a store review would.
//
// Usage:
//
//	widgetd init [dir] [--template vanilla|react] [--server go]
//	widgetd new <name> [--template vanilla|react]
//	widgetd build [--widgets DIR] [--out DIR] [--public-url URL] [--json]
//	widgetd serve [--dir dist] [--addr 127.0.0.1:8080] [--tls-cert F --tls-key F | --acme-host NAMES]
//	widgetd dev [--widgets DIR] [--addr 127.0.0.1:5173] [--public-url URL] [--mcp URL]
//	widgetd check [--dist dist | --widgets widgets] [--json] [--strict]
//	widgetd test [--update] [--junit FILE] [--json] [--chrome PATH]
//	widgetd types [--widgets DIR | --out FILE] [--check]
//	widgetd version
//	widgetd help [command]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if len(os.Args) > 1 && os.Args[1] == "build" {
		tuneGCForOneShot()
	}
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// command is one widgetd subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"init", "create a widget project from a template (optionally with a Go MCP server)", runInit},
		{"new", "add a widget to the project from a template", runNew},
		{"build", "bundle widgets into a content-hashed, precompressed dist/", runBuild},
		{"serve", "serve dist/ as a CDN origin", runServe},
		{"dev", "watch, rebuild and preview widgets under both hosts with live reload", runDev},
		{"check", "audit widgets the way a store review would", runCheck},
		{"test", "render every widget × fixture × host in headless Chromium and check it", runTest},
		{"types", "write widgetd.d.ts so editors and tsc know the bridge API", runTypes},
		{"version", "print the widgetd version", runVersion},
		{"help", "show help for a command", nil},
	}
}

// run dispatches to a subcommand and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "help" {
		if name == "help" && len(args) > 1 && args[1] != "help" {
			for _, c := range commands() {
				if c.name == args[1] && c.run != nil {
					return c.run(ctx, []string{"-h"}, stdout, stderr)
				}
			}
			fmt.Fprintf(stderr, "widgetd: unknown command %q\n", args[1])
			return exitUsage
		}
		usage(stdout)
		return exitOK
	}
	if name == "--version" {
		name = "version"
	}
	for _, c := range commands() {
		if c.name == name && c.run != nil {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "widgetd: unknown command %q\n\n", name)
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "widgetd builds, serves and checks MCP Apps and ChatGPT Apps widgets.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: widgetd <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'widgetd help <command>' for its flags.")
}

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
//	widgetd deploy s3://bucket[/prefix] [--endpoint URL] [--prune]
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
	"time"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "build" {
		tuneGCForOneShot()
	}
	os.Exit(runWithSignals(os.Args[1:], os.Stdout, os.Stderr, os.Exit))
}

// signalGrace is how long a command has, after SIGINT or SIGTERM cancelled
// its context, to return on its own before the process exits anyway.
const signalGrace = 2 * time.Second

// runWithSignals runs the command args names with a context that SIGINT and
// SIGTERM cancel. Most work stops on that, but a read blocked in the kernel
// or a compiler plugin that never answers does not; so a command other than
// serve (which drains connections for its own --shutdown-timeout) that is
// still running signalGrace after the signal, or at a second signal, is
// ended through exit with status 128+signal (130 for SIGINT, 143 for
// SIGTERM). Its children go with it: Chromium and the Node helper are
// started with a parent-death signal, and tsc is killed with the context.
// dist/ is only ever swapped in whole, so it is left as it was.
func runWithSignals(args []string, stdout, stderr io.Writer, exit func(int)) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	done := make(chan struct{})
	defer close(done)
	hard := len(args) == 0 || args[0] != "serve"
	go stopOnSignal(signals, done, cancel, hard, stderr, exit)
	return run(ctx, args, stdout, stderr)
}

// stopOnSignal cancels the command's context at the first signal and, when
// hard, exits if the command has not returned (closed done) within
// signalGrace or a second signal arrives.
func stopOnSignal(signals <-chan os.Signal, done <-chan struct{}, cancel context.CancelFunc, hard bool, stderr io.Writer, exit func(int)) {
	var sig os.Signal
	select {
	case sig = <-signals:
	case <-done:
		return
	}
	cancel()
	if !hard {
		sig = <-signals
	} else {
		select {
		case <-done:
			return
		case <-time.After(signalGrace):
		case sig = <-signals:
		}
	}
	fmt.Fprintf(stderr, "widgetd: stopped by %v while still busy; dist/ was not changed\n", sig)
	exit(signalExitCode(sig))
}

// signalExitCode is the shell's status for a process ended by sig.
func signalExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitError
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
		{"deploy", "publish dist/ to S3, R2, GCS or another S3-compatible store", runDeploy},
		{"dev", "watch, rebuild and preview widgets under both hosts with live reload", runDev},
		{"check", "audit widgets the way a store review would", runCheck},
		{"test", "render every widget × fixture × host in headless Chromium and check it", runTest},
		{"types", "write widgetd.d.ts and, with --mcp/--from, each widget's tool types", runTypes},
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

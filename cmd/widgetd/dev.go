package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/widgetd/widgetd/devserver"
)

// runDev is `widgetd dev`: watch, rebuild in memory, live reload, and the
// strict local preview of every widget under both host protocols.
func runDev(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("dev", "",
		"Watches the widgets, rebuilds them in memory on every change (dist/ is not written),\n"+
			"and serves a preview of each widget under its strict spec CSP, as an MCP Apps host\n"+
			"(the real AppBridge) or as ChatGPT (window.openai), with live reload, a build-error\n"+
			"overlay and CSP-violation reports. See docs/dev.md.\n", stdout, stderr)
	var opts devserver.Options
	projectFlags(fs, &opts.Root, &opts.WidgetsDir, widgetsHelp)
	fs.StringVar(&opts.Addr, "addr", devserver.DefaultAddr, "preview `address` (pages, live reload, built files)")
	fs.StringVar(&opts.SandboxAddr, "sandbox-addr", "", "`address` of the separate widget origin (default: next port of --addr)")
	fs.StringVar(&opts.PublicURL, "public-url", "", "`URL` the preview is reached at through a tunnel or reverse proxy; widgets load JS/CSS from it")
	fs.StringVar(&opts.SandboxURL, "sandbox-url", "", "`URL` the widget origin is reached at when it is proxied too")
	fs.StringVar(&opts.MCPURL, "mcp", "", "Streamable HTTP MCP server `URL` to forward the widgets' tools/call to, e.g. http://localhost:3000/mcp")
	fs.Func("allowed-hosts", "extra host `names`, comma-separated, requests may carry in Host (localhost, loopback IPs and the --addr/--public-url hosts are always allowed)", func(v string) error {
		for _, h := range strings.Split(v, ",") {
			if h = strings.TrimSpace(h); h != "" {
				opts.AllowedHosts = append(opts.AllowedHosts, h)
			}
		}
		return nil
	})
	if code, ok := fs.parse(args); !ok {
		return code
	}
	opts.Log = stderr
	srv, err := devserver.New(opts)
	if err != nil {
		printError(stderr, err)
		return exitError
	}
	fmt.Fprintf(stdout, "  ➜  Preview: %s\n", srv.PreviewURL())
	// Run ends with ctx's error on Ctrl-C/SIGTERM: a clean exit.
	if err := srv.Run(ctx); err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "widgetd dev: %v\n", err)
		return exitError
	}
	return exitOK
}

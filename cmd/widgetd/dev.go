package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/devserver"
)

// runDev is `widgetd dev`: watch, rebuild in memory, live reload, and the
// strict local preview of every widget under both host protocols.
func runDev(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("dev", "",
		"Watches the widgets, rebuilds them in memory on every change (dist/ is not written),\n"+
			"and serves a preview of each widget under its strict spec CSP, as an MCP Apps host\n"+
			"(the real AppBridge), ChatGPT (ui/* + window.openai, or legacy window.openai only)\n"+
			"or Claude, with live reload, a build-error\n"+
			"overlay and CSP-violation reports. See docs/dev.md.\n", stdout, stderr)
	var opts devserver.Options
	projectFlags(fs, &opts.Root, &opts.WidgetsDir, widgetsHelp)
	fs.StringVar(&opts.Addr, "addr", devserver.DefaultAddr, "preview `address` (pages, live reload, built files); when not given and the port is in use, the next free port is taken")
	port := -1 // not given
	fs.Func("port", "preview `port` on the --addr host (in use: an error, unlike the default port)", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 65535 {
			return errors.New("want a port number from 0 to 65535")
		}
		port = n
		return nil
	})
	fs.StringVar(&opts.SandboxAddr, "sandbox-addr", "", "`address` of the separate widget origin (default: next port of --addr)")
	fs.StringVar(&opts.PublicURL, "public-url", "", "`URL` the preview is reached at through a tunnel or reverse proxy; widgets load JS/CSS from it")
	fs.StringVar(&opts.SandboxURL, "sandbox-url", "", "`URL` the widget origin is reached at when it is proxied too")
	fs.StringVar(&opts.MCPURL, "mcp", "", "Streamable HTTP MCP server `URL` to inspect (its tools, calls, its own widgets: see docs/dev.md) and to forward the widgets' tools/call to (and to publish at /mcp of a public URL), e.g. http://localhost:3000/mcp")
	fs.Func("allowed-hosts", "extra host `names`, comma-separated, requests may carry in Host (localhost, loopback IPs and the --addr/--public-url hosts are always allowed)", func(v string) error {
		for _, h := range strings.Split(v, ",") {
			if h = strings.TrimSpace(h); h != "" {
				opts.AllowedHosts = append(opts.AllowedHosts, h)
			}
		}
		return nil
	})
	fs.BoolVar(&opts.TrustForwarded, "trust-forwarded", false, "trust X-Forwarded-Prefix, -Proto and -Host (only behind a proxy that sets them and drops the client's)")
	var tunnel, open bool
	fs.BoolVar(&open, "open", false, "open the preview in your browser (xdg-open, open or rundll32; without one it says so and keeps serving)")
	fs.BoolVar(&tunnel, "tunnel", false, "publish the preview (and --mcp) through cloudflared or ngrok found on PATH, and print what to paste into ChatGPT and Claude")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if tunnel && opts.PublicURL != "" {
		fmt.Fprintln(stderr, "widgetd dev: --tunnel and --public-url exclude each other: the tunnel's URL is the public URL")
		return exitUsage
	}
	opts.Log = stderr
	listening, code := listenDev(ctx, fs, &opts, port, stderr)
	if listening == nil {
		return code
	}
	opts.Listener, opts.Addr = listening.Listener, listening.Addr
	if tunnel {
		tun, err := startTunnel(ctx, opts.Addr, stderr)
		if err != nil {
			opts.Listener.Close()
			printError(stderr, err)
			return exitError
		}
		defer tun.Close()
		opts.PublicURL = tun.PublicURL
	}
	srv, err := devserver.New(opts)
	if err != nil {
		printError(stderr, err)
		return exitError
	}
	fmt.Fprintf(stdout, "  ➜  Preview: %s\n", srv.PreviewURL())
	if listening.BusyPort != 0 {
		fmt.Fprintf(stdout, "     (port %d is in use, so %s is used; pass --port to choose)\n", listening.BusyPort, opts.Addr)
	}
	printPublic(stdout, srv)
	if open {
		openBrowser(ctx, srv.PreviewURL(), stderr)
	}
	// Run ends with ctx's error on Ctrl-C/SIGTERM: a clean exit.
	if err := srv.Run(ctx); err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "widgetd dev: %v\n", err)
		return exitError
	}
	return exitOK
}

// listenDev opens the preview listener: --port N is --addr's host with port
// N; an address given with --addr or --port must be free, the default one
// moves to the next free port. On failure it prints why and returns the
// exit code.
func listenDev(ctx context.Context, fs *cmdFlags, opts *devserver.Options, port int, stderr io.Writer) (*devserver.Listening, int) {
	explicit, flagName := false, "--addr"
	fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "addr" || f.Name == "port" })
	if port >= 0 {
		host, _, err := net.SplitHostPort(opts.Addr)
		if err != nil {
			fmt.Fprintf(stderr, "widgetd dev: --addr %q: %v\n", opts.Addr, err)
			return nil, exitUsage
		}
		opts.Addr, flagName = net.JoinHostPort(host, strconv.Itoa(port)), "--port"
	}
	l, err := devserver.ListenPreview(ctx, opts.Addr, explicit, flagName)
	if err != nil {
		printError(stderr, err)
		return nil, exitError
	}
	return l, exitOK
}

// startTunnel starts cloudflared or ngrok (whichever is on PATH) publishing
// the preview listener addr, and waits up to a minute for its public URL.
func startTunnel(ctx context.Context, addr string, log io.Writer) (*devserver.Tunnel, error) {
	prog, err := devserver.FindTunnelProgram(exec.LookPath)
	if err != nil {
		return nil, err
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "0" {
		return nil, fmt.Errorf("--tunnel needs --addr with a fixed port, e.g. 127.0.0.1:5173 (got %q)", addr)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	fmt.Fprintf(log, "widgetd dev: starting %s (%s) for http://%s\n", prog.Name, prog.Path, net.JoinHostPort(host, port))
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return devserver.StartTunnel(ctx, prog, "http://"+net.JoinHostPort(host, port), log)
}

// printPublic prints, when the preview has a public URL, the asset and MCP
// URLs and what to paste into ChatGPT's and Claude's connector settings.
func printPublic(w io.Writer, srv *devserver.Server) {
	pub := srv.PublicURL()
	if pub == "" {
		return
	}
	fmt.Fprintf(w, "  ➜  Public:  %s (assets: %s/manifest.json)\n", pub, pub)
	fmt.Fprintf(w, "  ➜  Your MCP server in dev mode:  %s=%s <start your server>\n", assets.DevURLEnv, pub)
	mcpURL := srv.PublicMCPURL()
	if mcpURL == "" {
		fmt.Fprintf(w, "     (add --mcp http://localhost:8000/mcp to publish your MCP server at %s%s through the same origin)\n", pub, devserver.MCPPath)
		return
	}
	fmt.Fprintf(w, "  ➜  MCP:     %s\n", mcpURL)
	fmt.Fprintf(w, "     ChatGPT: Settings → Apps & Connectors → Advanced settings → Developer mode on; Create → MCP Server URL: %s, Authentication: No authentication\n", mcpURL)
	fmt.Fprintf(w, "     Claude:  Settings → Connectors → Add custom connector → Remote MCP server URL: %s\n", mcpURL)
	fmt.Fprintf(w, "     (give your server this connector URL too, assets.WithConnectorURL(%q), for Claude's ui.domain)\n", mcpURL)
}

package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/internal/daemontest"
	"github.com/widgetd/widgetd/internal/syncbuf"
)

// TestDevTunnelNeedsProgram runs `widgetd dev --tunnel` with a PATH that
// holds neither cloudflared nor ngrok (the real situation on this machine
// and in CI, no stand-in program): it must say exactly what to install,
// exit 1, and never open the preview listener. --tunnel with --public-url
// is a usage error.
func TestDevTunnelNeedsProgram(t *testing.T) {
	root := startupProject(t)
	t.Setenv("PATH", t.TempDir())
	port := daemontest.FreePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no program", []string{"--root", root, "--addr", addr, "--tunnel"}, exitError,
			[]string{"cloudflared", "ngrok", "brew install cloudflared", "https://github.com/cloudflare/cloudflared/releases", "ngrok config add-authtoken", "--public-url"}},
		{"with --public-url", []string{"--root", root, "--addr", addr, "--tunnel", "--public-url", "https://x.example"}, exitUsage,
			[]string{"--tunnel and --public-url exclude each other"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			devRefuses(t, tc.args, tc.code, tc.want)
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				t.Fatalf("the preview address is still held after exit: %v", err)
			}
			ln.Close()
		})
	}
}

// TestDevTunnelReal starts the real tunnel program where one is installed
// and reaches the preview through its public URL (it needs the internet).
// Neither program is installed here or in CI, so this test skips there;
// TestDevTunnelNeedsProgram covers that path.
func TestDevTunnelReal(t *testing.T) {
	prog, err := devserver.FindTunnelProgram(exec.LookPath)
	if err != nil {
		t.Skip("neither cloudflared nor ngrok is installed; TestDevTunnelNeedsProgram covers that case")
	}
	root := startupProject(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"dev", "--root", root, "--addr", fmt.Sprintf("127.0.0.1:%d", daemontest.FreePort(t)), "--tunnel"}, &out, &errb)
	}()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(90 * time.Second)
	for !strings.Contains(out.String(), "Public:") {
		if time.Now().After(deadline) {
			t.Fatalf("%s gave no public URL:\n%s\n%s", prog.Name, out.String(), errb.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	pub := strings.Fields(strings.SplitN(out.String(), "Public:", 2)[1])[0]
	for time.Now().Before(deadline) {
		res, err := http.Get(pub + "/_widgetd/state")
		if err == nil && res.StatusCode == 200 {
			res.Body.Close()
			return
		}
		if err == nil {
			res.Body.Close()
		}
		time.Sleep(time.Second)
	}
	t.Fatalf("%s/_widgetd/state never answered 200 through %s", pub, prog.Name)
}

// TestDevPublicURLPrintsConnectorSettings runs widgetd dev with a public URL
// and an MCP server and checks what it prints for the user to paste: the
// dev URL for the server, the asset manifest, the public MCP URL, and the
// ChatGPT and Claude connector settings.
func TestDevPublicURLPrintsConnectorSettings(t *testing.T) {
	_, out, errb, stop := startDevCmd(t, []string{"--root", startupProject(t), "--addr", "127.0.0.1:0",
		"--public-url", "https://dev.example.com", "--mcp", "http://127.0.0.1:1/mcp"})
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), "Claude:"); {
		if time.Now().After(deadline) {
			t.Fatalf("no connector settings printed:\n%s\n%s", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code := stop(); code != exitOK {
		t.Errorf("exit %d after Ctrl-C", code)
	}
	for _, want := range []string{
		"Public:  https://dev.example.com (assets: https://dev.example.com/manifest.json)",
		"WIDGETD_DEV_URL=https://dev.example.com",
		"MCP:     https://dev.example.com/mcp",
		"ChatGPT: Settings → Apps & Connectors → Advanced settings → Developer mode on; Create → MCP Server URL: https://dev.example.com/mcp",
		"Claude:  Settings → Connectors → Add custom connector → Remote MCP server URL: https://dev.example.com/mcp",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
}

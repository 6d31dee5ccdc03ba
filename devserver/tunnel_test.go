package devserver

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestTunnelURLInOutput reads the public URL from lines as cloudflared and
// ngrok print them, and nothing from the lines around them.
func TestTunnelURLInOutput(t *testing.T) {
	kinds := map[string]tunnelKind{}
	for _, k := range tunnelKinds() {
		kinds[k.name] = k
	}
	for _, tc := range []struct {
		prog, line, want string
	}{
		{"cloudflared", `2026-11-27T10:00:00Z INF |  https://quiet-river-1234.trycloudflare.com                                    |`, "https://quiet-river-1234.trycloudflare.com"},
		{"cloudflared", `2026-11-27T10:00:00Z INF Requesting new quick Tunnel on trycloudflare.com...`, ""},
		{"cloudflared", `2026-11-27T10:00:00Z INF Starting metrics server on 127.0.0.1:20241/metrics`, ""},
		{"cloudflared", `2026-11-27T10:00:00Z ERR failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host`, ""},
		{"ngrok", `t=2026-11-27T10:00:00+0000 lvl=info msg="started tunnel" obj=tunnels name=command_line addr=http://127.0.0.1:5173 url=https://1a2b-3c4d.ngrok-free.app`, "https://1a2b-3c4d.ngrok-free.app"},
		{"ngrok", `t=2026-11-27T10:00:00+0000 lvl=info msg="client session established" obj=tunnels.session`, ""},
	} {
		m := kinds[tc.prog].url.FindStringSubmatch(tc.line)
		got := ""
		if m != nil {
			got = m[len(m)-1]
		}
		if got != tc.want {
			t.Errorf("%s line %q: URL %q, want %q", tc.prog, tc.line, got, tc.want)
		}
	}
}

// TestFindTunnelProgram prefers cloudflared, falls back to ngrok, and says
// what to install when neither is found; an unknown program is refused.
func TestFindTunnelProgram(t *testing.T) {
	on := func(names ...string) func(string) (string, error) {
		return func(n string) (string, error) {
			for _, x := range names {
				if x == n {
					return "/opt/bin/" + n, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	for _, tc := range []struct {
		path []string
		want string
	}{
		{[]string{"cloudflared", "ngrok"}, "cloudflared"},
		{[]string{"ngrok"}, "ngrok"},
		{nil, ""},
	} {
		p, err := FindTunnelProgram(on(tc.path...))
		if tc.want == "" {
			if !errors.Is(err, ErrNoTunnelProgram) || !strings.Contains(err.Error(), "brew install cloudflared") {
				t.Errorf("PATH %v: %v, want ErrNoTunnelProgram", tc.path, err)
			}
			continue
		}
		if err != nil || p.Name != tc.want || p.Path != "/opt/bin/"+tc.want {
			t.Errorf("PATH %v: %+v %v, want %s", tc.path, p, err, tc.want)
		}
	}
	if _, err := StartTunnel(context.Background(), TunnelProgram{Name: "frp", Path: "/bin/true"}, "http://127.0.0.1:5173", io.Discard); err == nil {
		t.Error("StartTunnel accepted a program it does not know how to drive")
	}
}

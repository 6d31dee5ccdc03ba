package origin

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/origin/internal/servetest"
)

// TestListenRefuses: what Listen cannot run with is an error before anything
// listens, and a busy port is reported with the listen error.
func TestListenRefuses(t *testing.T) {
	reg := assetstest.LoadDir(t, assetstest.New(t, assetstest.Options{}).Dir)
	busy := servetest.Listen(t)
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"no registry", Options{Addr: "127.0.0.1:0"}, "Options.Registry is nil"},
		{"unknown engine", Options{Registry: reg, Addr: "127.0.0.1:0", Engine: "nginx"}, `engine "nginx": want fast or net/http`},
		{"half a certificate pair", Options{Registry: reg, Addr: "127.0.0.1:0", TLS: TLSOptions{CertFile: "c.pem"}}, "--tls-cert and --tls-key go together"},
		{"port in use", Options{Registry: reg, Addr: busy.Addr().String()}, "address already in use"},
		{"missing certificate", Options{Registry: reg, Addr: "127.0.0.1:0", TLS: TLSOptions{CertFile: "/nonexistent/c.pem", KeyFile: "/nonexistent/k.pem"}}, "TLS certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Listen(context.Background(), tc.opts)
			if err == nil {
				s.Close()
				t.Fatalf("Listen succeeded; want an error with %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Listen: %v; want %q", err, tc.want)
			}
		})
	}
}

// TestListenDefaultEngine: with no engine set, plain HTTP runs net/http
// (the fast engine is opt-in), and Close releases a listener Serve never
// ran on.
func TestListenDefaultEngine(t *testing.T) {
	reg := assetstest.LoadDir(t, assetstest.New(t, assetstest.Options{}).Dir)
	for _, tc := range []struct {
		engine Engine
		want   string
	}{{"", "HTTP/1.1, engine net/http"}, {EngineFast, "HTTP/1.1, engine fast"}, {EngineNetHTTP, "HTTP/1.1, engine net/http"}} {
		s, err := Listen(context.Background(), Options{Registry: reg, Addr: "127.0.0.1:0", Engine: tc.engine})
		if err != nil {
			t.Fatal(err)
		}
		addr := s.Addr().String()
		if got := s.Protocols(); got != tc.want || s.Scheme() != "http" || s.RedirectAddr() != nil {
			t.Errorf("engine %q: %s %q, redirect %v; want http %q, none", tc.engine, s.Scheme(), got, s.RedirectAddr(), tc.want)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Errorf("after Close, %s still taken: %v", addr, err)
			continue
		}
		ln.Close()
	}
	if DefaultEngine != EngineNetHTTP {
		t.Errorf("DefaultEngine = %q, want net/http (see BENCHMARKS.md, Origin engines)", DefaultEngine)
	}
}

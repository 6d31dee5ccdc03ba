package origin

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/internal/daemontest"
	"github.com/widgetd/widgetd/internal/testcert"
)

// startPebble runs Pebble on loopback with challenges always valid (there
// is no DNS here; this Pebble spells the switch PEBBLE_VA_ALWAYS_VALID, the
// README PEBBLE_VA_ALWAYSVALID: both are set) and no deliberate nonce rejection, over HTTPS with a
// certificate from ca. It returns the ACME directory URL and the URL of the
// management interface.
func startPebble(t *testing.T, ca *testcert.CA) (directory, management string) {
	t.Helper()
	bin := daemontest.Lookup(t, "pebble", "apt-get install -y pebble; .ci/run installs it")
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ca.Issue(t, 7, certFile, keyFile, "localhost", "127.0.0.1")
	acmePort, mgmtPort := daemontest.FreePort(t), daemontest.FreePort(t)
	cfg := map[string]any{"pebble": map[string]any{
		"listenAddress":           fmt.Sprintf("127.0.0.1:%d", acmePort),
		"managementListenAddress": fmt.Sprintf("127.0.0.1:%d", mgmtPort),
		"certificate":             certFile,
		"privateKey":              keyFile,
		"httpPort":                daemontest.FreePort(t),
		"tlsPort":                 daemontest.FreePort(t),
		"ocspResponderURL":        "",
	}}
	b, _ := json.Marshal(cfg)
	cfgFile := filepath.Join(dir, "pebble.json")
	if err := os.WriteFile(cfgFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-config", cfgFile)
	cmd.Env = append(os.Environ(), "PEBBLE_VA_ALWAYS_VALID=1", "PEBBLE_VA_ALWAYSVALID=1", "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0")
	p := daemontest.Start(t, cmd, cancel)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("pebble output:\n%s", p.Out.String())
		}
	})
	directory = fmt.Sprintf("https://127.0.0.1:%d/dir", acmePort)
	management = fmt.Sprintf("https://127.0.0.1:%d", mgmtPort)
	c := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	for deadline := time.Now().Add(20 * time.Second); ; {
		resp, err := c.Get(directory)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return directory, management
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pebble not answering at %s: %v\n%s", directory, err, p.Out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestServeACMEPebble: with --acme-host, serve gets a real certificate from
// a real ACME server (Pebble) on the first handshake for an allowlisted
// name, serves the widget assets with it over HTTP/2, caches it in
// --acme-cache, and refuses names outside the allowlist.
func TestServeACMEPebble(t *testing.T) {
	ca := testcert.NewCA(t)
	directory, management := startPebble(t, ca)
	caFile := filepath.Join(t.TempDir(), "pebble-https-ca.PEM")
	if err := os.WriteFile(caFile, ca.PEM, 0o644); err != nil {
		t.Fatal(err)
	}
	d := assetstest.New(t, assetstest.Options{})
	cache := t.TempDir()
	const host = "widgets.example.test"
	base, redirectURL, stderr := startServe(t, d.Dir, Options{TLS: TLSOptions{
		ACMEHosts: host, ACMECache: cache, ACMEDirectory: directory, ACMECA: caFile, ACMEEmail: "ops@example.test",
		RedirectAddr: "127.0.0.1:0"}})
	addr := strings.TrimPrefix(base, "https://")

	// Pebble's issuing root is generated at start; the management interface
	// hands it out.
	mc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	resp, err := mc.Get(management + "/roots/0")
	if err != nil {
		t.Fatal(err)
	}
	rootPEM, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(rootPEM) {
		t.Fatalf("pebble root: %q", rootPEM)
	}

	tr := &http.Transport{
		TLSClientConfig:    &tls.Config{RootCAs: roots, ServerName: host},
		ForceAttemptHTTP2:  true,
		DisableCompression: true,
		DialTLSContext:     nil,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	req, _ := http.NewRequest("GET", "https://"+addr+"/"+d.Asset, nil)
	req.Host = host
	req.Header.Set("Accept-Encoding", "br")
	resp, err = client.Do(req)
	if err != nil {
		t.Fatalf("GET over ACME certificate: %v; serve stderr: %s", err, stderr.String())
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "br" || len(body) == 0 || resp.ProtoMajor != 2 {
		t.Errorf("asset over ACME TLS: %s %s %v, %d bytes", resp.Proto, resp.Status, resp.Header, len(body))
	}
	leaf := resp.TLS.PeerCertificates[0]
	if len(leaf.DNSNames) != 1 || leaf.DNSNames[0] != host || !strings.Contains(leaf.Issuer.CommonName, "Pebble") {
		t.Errorf("certificate for %v issued by %q, want %s from Pebble", leaf.DNSNames, leaf.Issuer.CommonName, host)
	}
	if _, err := os.Stat(filepath.Join(cache, host)); err != nil {
		t.Errorf("certificate not cached in --acme-cache: %v", err)
	}

	// Plain HTTP on the redirect listener (autocert's HTTP-01 handler in
	// front) redirects to HTTPS.
	noFollow := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	rreq, _ := http.NewRequest("GET", redirectURL+"/"+d.Asset, nil)
	rreq.Host = host
	rresp, err := noFollow.Do(rreq)
	if err != nil {
		t.Fatal(err)
	}
	rresp.Body.Close()
	_, port, _ := strings.Cut(addr, ":")
	if want := "https://" + host + ":" + port + "/" + d.Asset; rresp.StatusCode != http.StatusPermanentRedirect || rresp.Header.Get("Location") != want {
		t.Errorf("redirect listener: %s Location %q, want 308 %q", rresp.Status, rresp.Header.Get("Location"), want)
	}

	// A name outside the allowlist gets no certificate (and no ACME order).
	c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: roots, ServerName: "other.example.test"})
	if err == nil {
		c.Close()
		t.Error("handshake for a name outside --acme-host succeeded")
	}
}

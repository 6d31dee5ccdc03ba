package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// runTLS measures the same asset over HTTPS: `widgetd serve --tls-cert`
// (net/http with crypto/tls, HTTP/2 by ALPN) against nginx with
// `listen ssl http2`, both with one self-signed P-256 certificate made here.
// HTTP/1.1 over TLS is measured with wrk, HTTP/2 with h2load (Debian
// nghttp2-client) at one stream per connection, so the concurrency equals
// wrk's.
func runTLS(ctx context.Context, o options, tmp, bin, dist, asset string, size int64) error {
	certFile, keyFile, pool, err := writeSelfSigned(tmp)
	if err != nil {
		return err
	}
	srv, wURL, err := startServe(ctx, bin, []string{"serve", "--dir", dist, "--addr", "127.0.0.1:0", "--access-log=false",
		"--tls-cert", certFile, "--tls-key", keyFile}, nil)
	if err != nil {
		return err
	}
	defer stopProc(srv)
	if err := checkBRTLS(wURL+"/"+asset, size, pool); err != nil {
		return fmt.Errorf("widgetd serve over TLS: %w", err)
	}
	var nURL string
	if !o.skipNginx {
		ng, u, err := startNginx(ctx, tmp, dist, &certFiles{certFile, keyFile})
		if err != nil {
			return err
		}
		defer stopProc(ng)
		nURL = u
		if err := checkBRTLS(nURL+"/"+asset, size, pool); err != nil {
			return fmt.Errorf("nginx over TLS: %w", err)
		}
	}
	_, h2err := exec.LookPath("h2load")
	fmt.Printf("\nover TLS (TLS 1.3, ECDSA P-256): HTTP/1.1 with wrk -t%d, HTTP/2 with h2load -t%d -m1 (mean latency; h2load reports no p99)\n\n", o.threads, o.threads)
	fmt.Printf("%-6s %-9s %-8s %12s %10s %8s %8s\n", "conns", "protocol", "server", "req/s", "latency", "errors", "ratio")
	conns, err := parseConns(o.conns)
	if err != nil {
		return err
	}
	wrk := func(base string, c int) (tlsResult, error) {
		r, err := runWrk(ctx, base+"/"+asset, c, o.threads, o.duration)
		return tlsResult{r.rps, r.p99 + " p99", r.errors}, err
	}
	h2 := func(base string, c int) (tlsResult, error) {
		r, err := runH2load(ctx, base+"/"+asset, c, o.threads, o.duration)
		return tlsResult{r.rps, r.mean + " avg", r.errors}, err
	}
	for _, c := range conns {
		if err := tlsRows(c, "h1+TLS", [2]string{"wrk widgetd TLS", "wrk nginx TLS"}, wURL, nURL, wrk); err != nil {
			return err
		}
		if h2err != nil {
			fmt.Printf("%-6d %-9s h2load not found (apt-get install -y nghttp2-client): HTTP/2 not measured\n", c, "h2")
			continue
		}
		if err := tlsRows(c, "h2", [2]string{"h2load widgetd", "h2load nginx"}, wURL, nURL, h2); err != nil {
			return err
		}
	}
	return nil
}

// tlsResult is one server's row of the TLS table.
type tlsResult struct {
	rps     float64
	latency string
	errors  int64
}

// tlsRows measures widgetd at wURL and, when nURL is set, nginx with
// measure at c connections, and prints their rows of the TLS table; what
// names each measurement in errors.
func tlsRows(c int, proto string, what [2]string, wURL, nURL string, measure func(base string, c int) (tlsResult, error)) error {
	w, err := measure(wURL, c)
	if err != nil {
		return fmt.Errorf("%s: %w", what[0], err)
	}
	fmt.Printf("%-6d %-9s %-8s %12.0f %10s %8d\n", c, proto, "widgetd", w.rps, w.latency, w.errors)
	if nURL == "" {
		return nil
	}
	n, err := measure(nURL, c)
	if err != nil {
		return fmt.Errorf("%s: %w", what[1], err)
	}
	fmt.Printf("%-6d %-9s %-8s %12.0f %10s %8d %7.2fx\n", c, proto, "nginx", n.rps, n.latency, n.errors, w.rps/n.rps)
	return nil
}

// writeSelfSigned writes a self-signed certificate for 127.0.0.1 and
// localhost and returns its files and a pool that trusts it.
func writeSelfSigned(dir string) (certFile, keyFile string, pool *x509.CertPool, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "localhost"},
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", nil, err
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", nil, err
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return "", "", nil, err
	}
	// nginx workers may run as another user: the key stays readable to them
	// inside the benchmark's private temporary folder.
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o644); err != nil {
		return "", "", nil, err
	}
	return certFile, keyFile, pool, nil
}

// checkBRTLS is checkBR over HTTPS with HTTP/2, trusting pool.
func checkBRTLS(url string, size int64, pool *x509.CertPool) error {
	tr := &http.Transport{DisableCompression: true, ForceAttemptHTTP2: true, TLSClientConfig: &tls.Config{RootCAs: pool}}
	resp, body, err := getBR(tr, url)
	if err != nil {
		return err
	}
	if resp.ProtoMajor != 2 || resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "br" || int64(len(body)) != size {
		return fmt.Errorf("GET %s: %s %d, Content-Encoding %q, body %d bytes; want HTTP/2 200 br %d bytes",
			url, resp.Proto, resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body), size)
	}
	return nil
}

// h2Result is what runH2load reads from h2load's report.
type h2Result struct {
	rps    float64
	mean   string
	errors int64
}

var (
	reH2RPS    = regexp.MustCompile(`finished in [0-9.]+m?s, ([0-9.]+) req/s`)
	reH2Reqs   = regexp.MustCompile(`requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout`)
	reH2Codes  = regexp.MustCompile(`status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx`)
	reH2Timing = regexp.MustCompile(`time for request:\s+\S+\s+\S+\s+(\S+)`)
)

// runH2load runs h2load for d at conns connections, one stream each, with
// Accept-Encoding: br, and parses its report.
func runH2load(ctx context.Context, url string, conns, threads int, d time.Duration) (h2Result, error) {
	args := []string{"-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns), "-m", "1", "-D", strconv.Itoa(int(d.Seconds())),
		"-H", "accept-encoding: br", url}
	out, err := exec.CommandContext(ctx, "h2load", args...).CombinedOutput()
	if err != nil {
		return h2Result{}, fmt.Errorf("h2load %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	s := string(out)
	m, n, codes, tm := reH2RPS.FindStringSubmatch(s), reH2Reqs.FindStringSubmatch(s), reH2Codes.FindStringSubmatch(s), reH2Timing.FindStringSubmatch(s)
	if m == nil || n == nil || codes == nil || tm == nil {
		return h2Result{}, fmt.Errorf("cannot parse h2load output:\n%s", s)
	}
	var r h2Result
	r.rps, _ = strconv.ParseFloat(m[1], 64)
	r.mean = tm[1]
	failed, _ := strconv.ParseInt(n[5], 10, 64)
	errored, _ := strconv.ParseInt(n[6], 10, 64)
	timeout, _ := strconv.ParseInt(n[7], 10, 64)
	c4, _ := strconv.ParseInt(codes[3], 10, 64)
	c5, _ := strconv.ParseInt(codes[4], 10, 64)
	r.errors = failed + errored + timeout + c4 + c5
	if done, _ := strconv.ParseInt(n[3], 10, 64); done == 0 {
		return r, fmt.Errorf("h2load finished no request:\n%s", s)
	}
	return r, nil
}

// Command origin compares `widgetd serve` with nginx as a CDN origin for the
// same dist/, and runs the origin soak.
//
// Benchmark mode (default): it builds the widgetd binary and the example
// widgets in external mode (hashed JS/CSS under dist/assets/), starts
// `widgetd serve --engine fast` and Debian nginx (brotli_static and gzip_static on,
// gzip_vary on, its own prefix and config in a temporary folder) on loopback
// over that dist, checks that both answer the largest hashed JS file with the
// same br bytes, then runs wrk against each for that file with
// `Accept-Encoding: br` at every connection count. It prints req/s, p99
// latency, errors and each engine's ratio to nginx. In the same run it
// measures `widgetd serve --engine net/http` (the default; -net-http) and
// both servers over TLS (-tls, see tls.go): HTTP/1.1 with wrk, HTTP/2 with
// h2load.
//
//	go run ./bench/origin [-conns 64,256] [-duration 5s] [-threads 2]
//
// Soak mode (-soak 5m): wrk at 256 connections against `widgetd serve` alone
// for the given time while the serve process's RSS is sampled every few
// seconds; it prints first/last/max RSS and fails on any error (non-2xx/3xx
// or socket error).
//
//	go run ./bench/origin -soak 5m
//
// Needs wrk, nginx, libnginx-mod-http-brotli-static and, for HTTP/2,
// nghttp2-client (Debian) and `npm ci`
// in widgets/ (see run.sh).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/widgetd/widgetd/bench/internal/benchenv"
)

func main() {
	var o options
	flag.StringVar(&o.widgets, "widgets", "widgets", "widgets folder to build (needs npm ci)")
	flag.StringVar(&o.conns, "conns", "64,256", "comma-separated wrk connection counts")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "wrk duration per run")
	flag.IntVar(&o.threads, "threads", 2, "wrk threads")
	flag.DurationVar(&o.soak, "soak", 0, "run the soak for this long against widgetd serve only (e.g. 5m)")
	flag.DurationVar(&o.sample, "sample", 5*time.Second, "RSS sampling interval during the soak")
	flag.StringVar(&o.serveEnv, "serve-env", "", "extra environment for widgetd serve, space-separated (e.g. GOGC=400)")
	flag.StringVar(&o.serveArgs, "serve-args", "", "extra flags for widgetd serve, space-separated")
	flag.BoolVar(&o.skipNginx, "skip-nginx", false, "benchmark widgetd serve only")
	flag.BoolVar(&o.tls, "tls", true, "also measure over TLS: HTTP/1.1 (wrk) and HTTP/2 (h2load)")
	flag.BoolVar(&o.netHTTP, "net-http", true, "also measure `widgetd serve --engine net/http` (plain HTTP)")
	flag.Parse()
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "origin:", err)
		os.Exit(1)
	}
}

type options struct {
	widgets   string
	conns     string
	duration  time.Duration
	threads   int
	soak      time.Duration
	sample    time.Duration
	serveEnv  string
	serveArgs string
	skipNginx bool
	tls       bool
	netHTTP   bool
}

func run(ctx context.Context, o options) error {
	for _, bin := range []string{"wrk", "nginx"} {
		if _, err := exec.LookPath(bin); err != nil && (bin == "wrk" || !o.skipNginx && o.soak == 0) {
			return fmt.Errorf("%s not found: apt-get install -y wrk nginx libnginx-mod-http-brotli-static", bin)
		}
	}
	tmp, err := os.MkdirTemp("", "widgetd-origin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// nginx workers may run as another user: let them read the dist.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}

	bin := filepath.Join(tmp, "widgetd")
	if err := cmdRun(ctx, "go", "build", "-o", bin, "./cmd/widgetd"); err != nil {
		return fmt.Errorf("build widgetd: %w", err)
	}
	dist := filepath.Join(tmp, "dist")
	if err := cmdRun(ctx, bin, "build", "--widgets", o.widgets, "--out", dist, "--public-url", "https://cdn.example.com"); err != nil {
		return fmt.Errorf("widgetd build: %w", err)
	}
	asset, size, err := biggestHashedJS(dist)
	if err != nil {
		return err
	}
	fmt.Printf("asset: /%s (br %d bytes)\n", asset, size)

	// The main row is the fast engine (opt-in since net/http became the
	// default); -serve-args comes last, so it can override that.
	serveArgs := append([]string{"serve", "--dir", dist, "--addr", "127.0.0.1:0", "--access-log=false", "--engine", "fast"}, strings.Fields(o.serveArgs)...)
	srv, wURL, err := startServe(ctx, bin, serveArgs, strings.Fields(o.serveEnv))
	if err != nil {
		return err
	}
	defer stopProc(srv)
	if err := checkBR(wURL+"/"+asset, size); err != nil {
		return fmt.Errorf("widgetd serve: %w", err)
	}

	if o.soak > 0 {
		return soak(ctx, o, srv.Process.Pid, wURL+"/"+asset)
	}

	var nURL string
	if !o.skipNginx {
		ng, u, err := startNginx(ctx, tmp, dist, nil)
		if err != nil {
			return err
		}
		defer stopProc(ng)
		nURL = u
		if err := checkBR(nURL+"/"+asset, size); err != nil {
			return fmt.Errorf("nginx: %w", err)
		}
	}

	var stdURL string
	if o.netHTTP {
		std, u, err := startServe(ctx, bin, append(serveArgs, "--engine", "net/http"), strings.Fields(o.serveEnv))
		if err != nil {
			return err
		}
		defer stopProc(std)
		stdURL = u
	}

	fmt.Printf("wrk -t%d -d%s -H 'Accept-Encoding: br'; GOMAXPROCS of widgetd = %d CPUs; serve env %q\n\n", o.threads, o.duration, numCPU(), o.serveEnv)
	fmt.Printf("%-6s %-8s %12s %10s %8s %8s\n", "conns", "server", "req/s", "p99", "errors", "÷ nginx")
	conns, err := parseConns(o.conns)
	if err != nil {
		return err
	}
	for _, c := range conns {
		if err := plainRow(ctx, o, c, wURL+"/"+asset, stdURL, nURL, asset); err != nil {
			return err
		}
	}
	if o.tls {
		return runTLS(ctx, o, tmp, bin, dist, asset, size)
	}
	return nil
}

// plainRow measures one connection count over plain HTTP: the fast engine
// (wURL), `--engine net/http` (stdURL, "" to skip) and nginx (nURL, "" to
// skip), each engine's req/s as a ratio to nginx's, and fast ÷ net/http.
func plainRow(ctx context.Context, o options, c int, wURL, stdURL, nURL, asset string) error {
	w, err := runWrk(ctx, wURL, c, o.threads, o.duration)
	if err != nil {
		return fmt.Errorf("wrk widgetd --engine fast: %w", err)
	}
	var s, n wrkResult
	if stdURL != "" {
		if s, err = runWrk(ctx, stdURL+"/"+asset, c, o.threads, o.duration); err != nil {
			return fmt.Errorf("wrk widgetd --engine net/http: %w", err)
		}
	}
	if nURL != "" {
		if n, err = runWrk(ctx, nURL+"/"+asset, c, o.threads, o.duration); err != nil {
			return fmt.Errorf("wrk nginx: %w", err)
		}
	}
	ratio := func(r wrkResult) string {
		if nURL == "" {
			return ""
		}
		return fmt.Sprintf("%7.2fx", r.rps/n.rps)
	}
	fmt.Printf("%-6d %-8s %12.0f %10s %8d %8s\n", c, "fast", w.rps, w.p99, w.errors, ratio(w))
	if stdURL != "" {
		fmt.Printf("%-6d %-8s %12.0f %10s %8d %8s   (fast engine = %.2fx net/http)\n", c, "net/http", s.rps, s.p99, s.errors, ratio(s), w.rps/s.rps)
	}
	if nURL != "" {
		fmt.Printf("%-6d %-8s %12.0f %10s %8d\n", c, "nginx", n.rps, n.p99, n.errors)
	}
	return nil
}

// soak runs wrk at 256 connections for o.soak while sampling the serve
// process's RSS, and fails on any error.
func soak(ctx context.Context, o options, pid int, url string) error {
	fmt.Printf("soak: %s at 256 connections, wrk -t%d, RSS sampled every %s\n", o.soak, o.threads, o.sample)
	type res struct {
		r   wrkResult
		err error
	}
	done := make(chan res, 1)
	go func() {
		r, err := runWrk(ctx, url, 256, o.threads, o.soak)
		done <- res{r, err}
	}()
	var samples []int64
	tick := time.NewTicker(o.sample)
	defer tick.Stop()
	start := time.Now()
	for {
		rss, err := rssKB(pid)
		if err != nil {
			return fmt.Errorf("serve process gone: %w", err)
		}
		samples = append(samples, rss)
		fmt.Printf("  t=%4.0fs RSS %6.1f MiB\n", time.Since(start).Seconds(), float64(rss)/1024)
		select {
		case r := <-done:
			if r.err != nil {
				return r.err
			}
			rss, err := rssKB(pid)
			if err != nil {
				return fmt.Errorf("serve process gone after the soak: %w", err)
			}
			samples = append(samples, rss)
			first, last, mx := samples[0], samples[len(samples)-1], int64(0)
			// The first sample is taken before any load; compare against the
			// first sample under load for flatness.
			loaded := samples[min(1, len(samples)-1)]
			for _, s := range samples {
				mx = max(mx, s)
			}
			fmt.Printf("\nsoak result: %d requests, %.0f req/s, p99 %s, errors %d (non-2xx/3xx %d, socket %d)\n",
				r.r.requests, r.r.rps, r.r.p99, r.r.errors, r.r.non2xx, r.r.socket)
			fmt.Printf("RSS MiB: idle %.1f, first under load %.1f, last %.1f, max %.1f (%d samples)\n",
				mb(first), mb(loaded), mb(last), mb(mx), len(samples))
			if r.r.errors > 0 {
				return fmt.Errorf("soak: %d errors", r.r.errors)
			}
			if last > loaded*3/2+4096 {
				return fmt.Errorf("soak: RSS grew from %.1f to %.1f MiB under load", mb(loaded), mb(last))
			}
			fmt.Println("soak: OK (zero errors, RSS flat)")
			return nil
		case <-tick.C:
		}
	}
}

func mb(kb int64) float64 { return float64(kb) / 1024 }

func rssKB(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			return strconv.ParseInt(f[1], 10, 64)
		}
	}
	return 0, errors.New("no VmRSS")
}

func numCPU() int {
	b, err := exec.Command("nproc").Output()
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

func cmdRun(ctx context.Context, name string, args ...string) error {
	c := exec.CommandContext(ctx, name, args...)
	c.Stdout = io.Discard
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return nil
}

// biggestHashedJS returns the largest immutable .js file with a br variant
// and the br variant's size.
func biggestHashedJS(dist string) (string, int64, error) {
	raw, err := os.ReadFile(filepath.Join(dist, "manifest.json"))
	if err != nil {
		return "", 0, err
	}
	var m struct {
		Files []struct {
			Path      string `json:"path"`
			Immutable bool   `json:"immutable"`
			Encodings []struct {
				Name string `json:"name"`
				Size int64  `json:"size"`
			} `json:"encodings"`
		} `json:"files"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", 0, fmt.Errorf("manifest.json: %w", err)
	}
	best, bestSize := "", int64(0)
	for _, f := range m.Files {
		if !f.Immutable || !strings.HasSuffix(f.Path, ".js") {
			continue
		}
		for _, e := range f.Encodings {
			if e.Name == "br" && e.Size > bestSize {
				best, bestSize = f.Path, e.Size
			}
		}
	}
	if best == "" {
		return "", 0, errors.New("dist has no hashed .js with a br variant (build in external mode)")
	}
	return best, bestSize, nil
}

// startServe starts `widgetd serve` and returns its base URL from the
// startup line.
func startServe(ctx context.Context, bin string, args, env []string) (*exec.Cmd, string, error) {
	c := exec.CommandContext(ctx, bin, args...)
	c.Env = append(os.Environ(), env...)
	c.Stderr = os.Stderr
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := c.Start(); err != nil {
		return nil, "", err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stopProc(c)
		return nil, "", fmt.Errorf("widgetd serve printed no URL: %w", err)
	}
	go io.Copy(io.Discard, out)
	u := regexp.MustCompile(`https?://[0-9.:]+`).FindString(line)
	if u == "" {
		stopProc(c)
		return nil, "", fmt.Errorf("widgetd serve: no URL in %q", line)
	}
	return c, u, nil
}

// nginxConf is the nginx configuration of the comparison; the {{...-tls}}
// places are empty for plain HTTP and hold nginxTLS's lines over TLS.
const nginxConf = `load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;
worker_processes auto;
%s
pid {{prefix}}/nginx.pid;
error_log {{prefix}}/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 120s;
  keepalive_requests 1000000;
  open_file_cache max=1000 inactive=60s;
  client_body_temp_path {{prefix}}/tmp;
  proxy_temp_path {{prefix}}/tmp;
  fastcgi_temp_path {{prefix}}/tmp;
  uwsgi_temp_path {{prefix}}/tmp;
  scgi_temp_path {{prefix}}/tmp;
{{http-tls}}  server {
    listen 127.0.0.1:{{port}}{{listen-tls}} reuseport;
{{server-tls}}    root {{dist}};
    gzip_static on;
    gzip_vary on;
    gzip_proxied any;
    brotli_static on;
    location /assets/ {
      add_header Cache-Control "public, max-age=31536000, immutable";
      add_header Access-Control-Allow-Origin "*";
      add_header Cross-Origin-Resource-Policy "cross-origin";
      add_header Timing-Allow-Origin "*";
      add_header X-Content-Type-Options "nosniff";
    }
  }
}
`

// nginxTLS holds the lines nginxConf gets over TLS (HTTP/2 by ALPN).
var nginxTLS = []string{
	"{{http-tls}}", "  ssl_protocols TLSv1.2 TLSv1.3;\n  ssl_session_cache shared:SSL:1m;\n",
	"{{listen-tls}}", " ssl http2",
	"{{server-tls}}", "    ssl_certificate {{cert}};\n    ssl_certificate_key {{key}};\n",
}

// certFiles are the PEM files of a server certificate and its key.
type certFiles struct{ cert, key string }

// nginxConfig returns nginxConf for nginx's prefix folder, the dist folder
// to serve, the port, whether workers must run as root, and tls (nil for
// plain HTTP).
func nginxConfig(prefix, dist string, port int, root bool, tls *certFiles) string {
	user := ""
	if root {
		user = "user root;"
	}
	conf := fmt.Sprintf(nginxConf, user)
	if tls != nil {
		conf = strings.NewReplacer(nginxTLS...).Replace(conf)
	} else {
		conf = strings.NewReplacer("{{http-tls}}", "", "{{listen-tls}}", "", "{{server-tls}}", "").Replace(conf)
	}
	r := []string{"{{prefix}}", prefix, "{{port}}", strconv.Itoa(port), "{{dist}}", dist}
	if tls != nil {
		r = append(r, "{{cert}}", tls.cert, "{{key}}", tls.key)
	}
	return strings.NewReplacer(r...).Replace(conf)
}

// startNginx writes a config into its own prefix under tmp and starts nginx
// in the foreground on a free loopback port, over TLS with tls's
// certificate when tls is not nil. It returns nginx's base URL.
func startNginx(ctx context.Context, tmp, dist string, tls *certFiles) (*exec.Cmd, string, error) {
	name, scheme, what := "nginx", "http://", "nginx"
	if tls != nil {
		name, scheme, what = "nginx-tls", "https://", "nginx (TLS)"
	}
	prefix := filepath.Join(tmp, name)
	if err := os.MkdirAll(filepath.Join(prefix, "tmp"), 0o755); err != nil {
		return nil, "", err
	}
	port, err := benchenv.FreePort()
	if err != nil {
		return nil, "", err
	}
	conf := nginxConfig(prefix, dist, port, os.Geteuid() == 0, tls)
	cf := filepath.Join(prefix, "nginx.conf")
	if err := os.WriteFile(cf, []byte(conf), 0o644); err != nil {
		return nil, "", err
	}
	c := exec.CommandContext(ctx, "nginx", "-p", prefix, "-c", cf, "-g", "daemon off;")
	c.Stderr = os.Stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		return nil, "", err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; i < 100; i++ {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return c, scheme + addr, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	stopProc(c)
	b, _ := os.ReadFile(filepath.Join(prefix, "error.log"))
	return nil, "", fmt.Errorf("%s did not start listening: %s", what, b)
}

// stopProc sends SIGTERM (SIGQUIT for nginx's graceful stop is not needed)
// and waits.
func stopProc(c *exec.Cmd) {
	if c == nil || c.Process == nil {
		return
	}
	_ = c.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.Process.Kill()
		<-done
	}
}

// parseConns reads -conns: a comma-separated list of connection counts.
func parseConns(s string) ([]int, error) {
	var conns []int
	for _, cs := range strings.Split(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(cs))
		if err != nil || c <= 0 {
			return nil, fmt.Errorf("bad -conns entry %q", cs)
		}
		conns = append(conns, c)
	}
	return conns, nil
}

// getBR fetches url through tr with Accept-Encoding: br and returns the
// response with its body read.
func getBR(tr *http.Transport, url string) (*http.Response, []byte, error) {
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Encoding", "br")
	resp, err := tr.RoundTrip(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// checkBR fetches url with Accept-Encoding: br and checks the response is the
// br variant of the expected size with Vary.
func checkBR(url string, size int64) error {
	resp, body, err := getBR(&http.Transport{DisableCompression: true}, url)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "br" ||
		int64(len(body)) != size || resp.ContentLength != size || resp.Header.Get("Vary") != "Accept-Encoding" {
		return fmt.Errorf("GET %s: %d, Content-Encoding %q, Content-Length %d, body %d bytes, Vary %q; want 200 br %d bytes with Vary",
			url, resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.ContentLength, len(body), resp.Header.Get("Vary"), size)
	}
	return nil
}

type wrkResult struct {
	rps      float64
	p99      string
	requests int64
	non2xx   int64
	socket   int64
	errors   int64
}

var (
	reRPS    = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	reP99    = regexp.MustCompile(`\n\s+99%\s+(\S+)`)
	reReqs   = regexp.MustCompile(`(\d+) requests in`)
	reNon2xx = regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`)
	reSocket = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

// runWrk runs wrk with --latency and Accept-Encoding: br and parses its
// report.
func runWrk(ctx context.Context, url string, conns, threads int, d time.Duration) (wrkResult, error) {
	args := []string{"-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns), "-d", fmt.Sprintf("%ds", int(d.Seconds())),
		"--latency", "--timeout", "5s", "-H", "Accept-Encoding: br", url}
	out, err := exec.CommandContext(ctx, "wrk", args...).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	s := string(out)
	var r wrkResult
	m := reRPS.FindStringSubmatch(s)
	p := reP99.FindStringSubmatch(s)
	n := reReqs.FindStringSubmatch(s)
	if m == nil || p == nil || n == nil {
		return r, fmt.Errorf("cannot parse wrk output:\n%s", s)
	}
	r.rps, _ = strconv.ParseFloat(m[1], 64)
	r.p99 = p[1]
	r.requests, _ = strconv.ParseInt(n[1], 10, 64)
	if m := reNon2xx.FindStringSubmatch(s); m != nil {
		r.non2xx, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := reSocket.FindStringSubmatch(s); m != nil {
		for _, x := range m[1:] {
			v, _ := strconv.ParseInt(x, 10, 64)
			r.socket += v
		}
	}
	r.errors = r.non2xx + r.socket
	return r, nil
}

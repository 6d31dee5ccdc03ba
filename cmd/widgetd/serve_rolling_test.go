package main

import (
	"bytes"
	"context"
	"fmt"
	"github.com/widgetd/widgetd/internal/nginxtest"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/internal/daemontest"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// nginxLBConf puts two widgetd serve replicas behind nginx as a load
// balancer, twice: port lb without a cache, port cache with one. A request
// a replica answers with 404 (a file of a build it does not have yet) or
// cannot answer (it is restarting) is retried once on the other replica:
// that is what makes a rolling deploy safe for files only the new build
// has. 404s carry no-store, so nginx never caches them.
const nginxLBConf = `worker_processes 1;
{{user}}
pid {{prefix}}/nginx.pid;
error_log {{prefix}}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  {{temp_paths}}
  proxy_cache_path {{prefix}}/cache keys_zone=widgets:1m max_size=64m;
  upstream widgetd {
    server 127.0.0.1:{{r1}} max_fails=0;
    server 127.0.0.1:{{r2}} max_fails=0;
    keepalive 8;
  }
  server {
    listen 127.0.0.1:{{lb}};
    location / {
      proxy_pass http://widgetd;
{{proxy}}
    }
  }
  server {
    listen 127.0.0.1:{{cache}};
    location / {
      proxy_pass http://widgetd;
{{proxy}}
      proxy_cache widgets;
      add_header X-Cache $upstream_cache_status always;
    }
  }
}
`

// nginxProxyRules are the proxy settings of both front ends: keep-alive to
// the replicas, and one retry on the other replica for a connection error,
// a timeout, a 404, a 502 or a 503.
const nginxProxyRules = `      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_connect_timeout 1s;
      proxy_next_upstream error timeout http_404 http_502 http_503;
      proxy_next_upstream_tries 2;
      add_header X-Upstream-Status $upstream_status always;`

// startNginxLB runs nginx on loopback in front of replica ports r1 and r2
// and returns the URLs of its plain load balancer and of its caching one.
func startNginxLB(t *testing.T, r1, r2 int) (lb, cached string) {
	t.Helper()
	lbPort, cachePort := daemontest.FreePort(t), daemontest.FreePort(t)
	conf := strings.NewReplacer("{{r1}}", fmt.Sprint(r1), "{{r2}}", fmt.Sprint(r2),
		"{{lb}}", fmt.Sprint(lbPort), "{{cache}}", fmt.Sprint(cachePort), "{{proxy}}", nginxProxyRules).Replace(nginxLBConf)
	nginxtest.Start(t, conf, lbPort, cachePort)
	return fmt.Sprintf("http://127.0.0.1:%d", lbPort), fmt.Sprintf("http://127.0.0.1:%d", cachePort)
}

// replica is one running widgetd serve.
type replica struct{ *servingCLI }

// startReplica runs widgetd serve for dist on port and returns once it
// listens.
func startReplica(t *testing.T, dist string, port int) *replica {
	t.Helper()
	return &replica{startServeCLI(t, "--dir", dist, "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--access-log=false", "--shutdown-timeout", "5s")}
}

// stop shuts the replica down gracefully, as a deploy's SIGTERM does.
func (r *replica) stop(t *testing.T) {
	t.Helper()
	if code := r.servingCLI.stop(t); code != exitOK {
		t.Errorf("replica exit %d", code)
	}
}

// templateURIs returns the paths the current build of dist references: each
// widget's HTML, the files the manifest says it loads, and every URL under
// publicURL in the HTML.
func templateURIs(t *testing.T, dist, publicURL string) []string {
	t.Helper()
	reg := assetstest.LoadDir(t, dist)
	seen := map[string]bool{}
	ref := regexp.MustCompile(regexp.QuoteMeta(publicURL) + `[A-Za-z0-9._~/-]+`)
	for _, w := range reg.Manifest().Widgets {
		seen["/"+w.HTML] = true
		for _, f := range w.Files {
			seen["/"+f] = true
		}
		html, err := os.ReadFile(filepath.Join(dist, w.HTML))
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range ref.FindAllString(string(html), -1) {
			seen["/"+strings.TrimPrefix(u, publicURL)] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestRollingDeployBehindNginx rolls two widgetd serve replicas from build A
// to build B (A+A → A+B → B+B) behind a real nginx load balancer, with and
// without its cache. B changes the widget's sources, so its HTML, JS and CSS
// have new hashes, and B's dist/ retains A's files. Before, during and after
// the roll, every URI the templates already deployed reference — A's from the
// start, B's once a B replica runs — is fetched through nginx, continuously,
// and must load: zero 404s, zero errors.
func TestRollingDeployBehindNginx(t *testing.T) {
	const publicURL = "https://widgets.example.test/"
	root := t.TempDir()
	writeCardProject(t, root, "#root { color: #123; }\n", `document.getElementById("root")!.textContent = "A";`+"\n")
	build := func(snapshot string) {
		t.Helper()
		var errb bytes.Buffer
		if code := runBuild(context.Background(), []string{"--root", root, "--public-url", publicURL, "--cache-dir", filepath.Join(root, ".cache")}, io.Discard, &errb); code != exitOK {
			t.Fatalf("build: exit %d: %s", code, errb.String())
		}
		if err := os.CopyFS(snapshot, os.DirFS(filepath.Join(root, "dist"))); err != nil {
			t.Fatal(err)
		}
	}
	distA, distB := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	build(distA)
	writeCardProject(t, root, "#root { color: #456; }\n", `document.getElementById("root")!.textContent = "B";`+"\n")
	build(distB)
	urisA, urisB := templateURIs(t, distA, publicURL), templateURIs(t, distB, publicURL)
	onlyB := 0
	for _, u := range urisB {
		if !containsString(urisA, u) {
			onlyB++
		}
	}
	if onlyB < 3 {
		t.Fatalf("build B changes %d URIs (%v vs %v): the roll tests nothing", onlyB, urisA, urisB)
	}

	p1, p2 := daemontest.FreePort(t), daemontest.FreePort(t)
	lb, cached := startNginxLB(t, p1, p2)
	r1, r2 := startReplica(t, distA, p1), startReplica(t, distA, p2)
	t.Cleanup(func() { r1.cancel(); r2.cancel() })

	// The fetcher: every live URI through both nginx front ends, over and
	// over, until the roll is done.
	var mu sync.Mutex
	live := append([]string(nil), urisA...)
	type failure struct{ phase, front, uri, status string }
	var failures []failure
	counts := map[string]int{}
	retried := 0 // answers nginx got only on the second replica, after a 404
	phase := "A+A"
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	fetchAll := func() {
		mu.Lock()
		uris, ph := append([]string(nil), live...), phase
		mu.Unlock()
		for _, front := range []string{lb, cached} {
			for _, u := range uris {
				req, _ := http.NewRequest("GET", front+u, nil)
				req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
				resp, err := client.Do(req)
				status := ""
				if err != nil {
					status = err.Error()
				} else {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					status = resp.Status
				}
				mu.Lock()
				if err == nil && strings.HasPrefix(resp.Header.Get("X-Upstream-Status"), "404, ") {
					retried++
				}
				counts[ph]++
				if status != "200 OK" {
					failures = append(failures, failure{ph, front, u, status})
				}
				mu.Unlock()
			}
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					fetchAll()
					time.Sleep(2 * time.Millisecond) // leave CPU to the servers under test
				}
			}
		}()
	}
	// setPhase switches the fetchers to phase p (and uris, if given) and
	// returns once they have fetched every live URI through both front
	// ends at least twenty times in it, however slow the machine is.
	setPhase := func(p string, uris []string) {
		mu.Lock()
		phase = p
		if uris != nil {
			live = uris
		}
		want := 20 * 2 * len(live)
		mu.Unlock()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			n := counts[p]
			mu.Unlock()
			if n >= want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("phase %s: %d fetches in 60s", p, n)
			}
		}
	}
	union := append(append([]string(nil), urisA...), urisB...)

	setPhase("A+A", nil)
	setPhase("stopping replica 2 (A)", nil)
	r2.stop(t)
	setPhase("replica 2 down", nil)
	r2 = startReplica(t, distB, p2)
	setPhase("A+B", union) // B's templates are out: clients may ask either replica for B's files
	setPhase("stopping replica 1 (A)", nil)
	r1.stop(t)
	setPhase("replica 1 down", nil)
	r1 = startReplica(t, distB, p1)
	setPhase("B+B", nil)
	close(stop)
	wg.Wait()

	mu.Lock()
	defer mu.Unlock()
	for _, f := range failures {
		t.Errorf("%s: %s%s: %s", f.phase, f.front, f.uri, f.status)
	}
	for _, p := range []string{"A+A", "stopping replica 2 (A)", "replica 2 down", "A+B", "stopping replica 1 (A)", "replica 1 down", "B+B"} {
		if counts[p] == 0 {
			t.Errorf("phase %s: no fetches", p)
		}
		t.Logf("phase %-24s %5d fetches", p, counts[p])
	}
	t.Logf("rolling deploy: %d URIs of A, %d of B (%d only in B), %d failed fetches, %d answers after a 404 from an A replica", len(urisA), len(urisB), onlyB, len(failures), retried)
	if retried == 0 {
		t.Error("no request for a B file reached an A replica first: the roll did not exercise the retry")
	}

	// Without the retry on 404, the roll does lose requests: B's files
	// asked of an A replica are 404s. Check that directly.
	r1.stop(t)
	r1 = startReplica(t, distA, p1)
	missing := 0
	for _, u := range urisB {
		if containsString(urisA, u) {
			continue
		}
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", p1, u))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 404 {
			missing++
		}
	}
	if missing != onlyB {
		t.Errorf("an A replica answers %d of B's %d new URIs with 404, want all", missing, onlyB)
	}
	r1.stop(t)
	r2.stop(t)
	r1.cancel, r2.cancel = func() {}, func() {}
}

// writeCardProject writes a one-widget project (widgets/card: TypeScript and CSS,
// no npm packages) with the given sources into root.
func writeCardProject(t *testing.T, root, css, ts string) {
	t.Helper()
	files := map[string]string{
		"widgets/card/widget.json": `{"title": "Card", "description": "A card.", "domain": "https://widgets.example.test"}`,
		"widgets/card/index.ts":    `import "./card.css";` + "\n" + ts,
		"widgets/card/card.css":    css,
	}
	testfiles.Write(t, root, files)
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

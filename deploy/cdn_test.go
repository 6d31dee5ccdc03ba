package deploy

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/widgetd/widgetd/internal/nginxtest"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/internal/browsertest"
	"github.com/widgetd/widgetd/internal/daemontest"
)

// cdnConf stands nginx in front of the bucket as CloudFront or Cloudflare
// would be: /w/ maps to the bucket's w/ prefix, identity objects are
// compressed at the edge (CloudFront "compress objects automatically",
// Cloudflare's default), and the CORS headers come from the edge (a
// CloudFront response headers policy, a Cloudflare transform rule).
const cdnConf = `worker_processes 1;
{{user}}
pid {{prefix}}/nginx.pid;
error_log {{prefix}}/error.log;
events { worker_connections 64; }
http {
  access_log {{prefix}}/access.log;
  {{temp_paths}}
  server {
    listen 127.0.0.1:{{port}};
    location /w/ {
      limit_except GET { deny all; }
      proxy_pass {{store}}/{{bucket}}/w/;
      proxy_http_version 1.1;
      proxy_set_header Authorization "";
      proxy_hide_header Access-Control-Allow-Origin;
      gzip on;
      gzip_proxied any;
      gzip_vary on;
      gzip_types text/css text/javascript application/javascript application/json image/svg+xml;
      add_header Access-Control-Allow-Origin * always;
      add_header Cross-Origin-Resource-Policy cross-origin always;
      add_header Timing-Allow-Origin * always;
      add_header X-Content-Type-Options nosniff always;
    }
  }
}
`

// startCDN runs nginx with cdnConf in front of s and returns its base URL
// for the w/ prefix and its access log's path.
func startCDN(t *testing.T, s *store) (base, accessLog string) {
	t.Helper()
	port := daemontest.FreePort(t)
	conf := strings.NewReplacer("{{port}}", fmt.Sprint(port), "{{store}}", s.endpoint, "{{bucket}}", s.bucket).Replace(cdnConf)
	n := nginxtest.Start(t, conf, port)
	return fmt.Sprintf("http://127.0.0.1:%d/w", port), n.Path("access.log")
}

// fixture is the part of a widget's fixtures/default.json the test uses.
type fixture struct {
	ToolInput  map[string]any `json:"toolInput"`
	ToolResult map[string]any `json:"toolResult"`
	Expect     struct {
		Text     []string `json:"text"`
		Elements []string `json:"elements"`
	} `json:"expect"`
}

// TestDeployBehindCDNInAppBridge builds the example widgets for the CDN's
// URL (--public-url), deploys them, puts nginx in front of the bucket as
// the CDN, loads the build as a Go MCP server would, with WithAssetBase
// pointing at the CDN, and renders every widget's resources/read document in the
// real AppBridge host in Chromium: each shows its fixture's text and
// elements, with every script, style sheet and image fetched from the CDN
// under the widget's CSP, and no failed load or CSP violation.
func TestDeployBehindCDNInAppBridge(t *testing.T) {
	s := startStore(t)
	root := examplesProject(t)
	dist := filepath.Join(t.TempDir(), "dist")
	// The CDN's URL goes into the build: files reference each other by it
	// (an image a script imports), and WithAssetBase rewrites only the
	// documents and the CSP, not URLs inside scripts and style sheets.
	cdn, accessLog := startCDN(t, s)
	m := buildFor(t, root, dist, 5, cdn)
	if _, err := Deploy(context.Background(), s.client, Options{Dist: dist, Target: Target{Bucket: s.bucket, Prefix: "w/"}}); err != nil {
		t.Fatal(err)
	}
	checkEdgeCompression(t, cdn, m)

	reg, err := assets.Load(os.DirFS(dist), assets.WithAssetBase(cdn))
	if err != nil {
		t.Fatal(err)
	}
	hosts := shared.Hosts(t)
	mux := http.NewServeMux()
	mux.Handle("/", hosts.Handler())
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)
	for _, w := range m.Widgets {
		if w.Inline {
			t.Fatalf("widget %s built inline: the build must load its files from the CDN", w.Name)
		}
		html, csp := readResource(t, reg, w.Profiles[0].URI)
		if !strings.Contains(html, cdn+"/assets/") {
			t.Fatalf("%s's document loads nothing from the CDN %s", w.Name, cdn)
		}
		mux.Handle("GET /widget/"+w.Name, browsertest.WidgetHandler([]byte(html), csp))
		var fx fixture
		if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, "widgets", w.Name, "fixtures", "default.json"))), &fx); err != nil {
			t.Fatal(err)
		}
		t.Run(w.Name, func(t *testing.T) {
			p := shared.Page(t)
			p.OpenHost(host.URL+browsertest.MCPHostPath, "/widget/"+w.Name, map[string]any{"input": fx.ToolInput, "result": fx.ToolResult})
			p.Wait(`hostLog.some(e => e.t == "initialized")`)
			for _, text := range fx.Expect.Text {
				p.Wait(browsertest.W + `.document.body.textContent.includes(` + browsertest.JS(text) + `)`)
			}
			for _, sel := range fx.Expect.Elements {
				p.Wait(browsertest.W + `.document.querySelector(` + browsertest.JS(sel) + `) != null`)
			}
			p.Wait(`[...` + browsertest.W + `.document.images].every(i => i.complete && i.naturalWidth > 0)`)
			p.NoErrors()
		})
	}
	// Every file the documents load came through the CDN.
	logged := readFile(t, accessLog)
	for _, w := range m.Widgets {
		for _, f := range w.Files {
			if !strings.Contains(logged, "GET /w/"+f+" HTTP/1.1\" 200") {
				t.Errorf("the CDN's access log has no 200 for /w/%s:\n%s", f, logged)
			}
		}
	}
}

// readResource reads a widget resource as an MCP server embedding the
// build would answer resources/read, and returns its HTML with the CSP a
// host builds from its _meta.ui.csp.
func readResource(t *testing.T, reg *assets.Registry, uri string) (html, csp string) {
	t.Helper()
	c, err := reg.Read(uri, assets.Client{})
	if err != nil {
		t.Fatal(err)
	}
	ui, _ := c.Meta["ui"].(map[string]any)
	raw, err := json.Marshal(ui["csp"])
	if err != nil {
		t.Fatal(err)
	}
	var d cspgen.Domains
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s: _meta.ui.csp %s: %v", uri, raw, err)
	}
	pol, err := cspgen.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return c.Text, pol.Header()
}

// checkEdgeCompression fetches each hashed JS and CSS file through the CDN
// with and without Accept-Encoding: gzip: the edge compresses the identity
// object itself, and both decode to the manifest's bytes.
func checkEdgeCompression(t *testing.T, cdn string, m *assets.Manifest) {
	t.Helper()
	for _, f := range m.Files {
		if !strings.HasSuffix(f.Path, ".js") && !strings.HasSuffix(f.Path, ".css") {
			continue
		}
		for _, ae := range []string{"", "gzip, deflate, br"} {
			req, _ := http.NewRequest(http.MethodGet, cdn+"/"+f.Path, nil)
			if ae != "" {
				req.Header.Set("Accept-Encoding", ae)
			}
			resp, err := rawClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var body io.Reader = resp.Body
			enc := resp.Header.Get("Content-Encoding")
			if enc == "gzip" {
				if body, err = gzip.NewReader(resp.Body); err != nil {
					t.Fatal(err)
				}
			}
			data, err := io.ReadAll(body)
			resp.Body.Close()
			sum := sha256.Sum256(data)
			switch {
			case err != nil || resp.StatusCode != http.StatusOK:
				t.Errorf("CDN GET %s (Accept-Encoding %q): %s %v", f.Path, ae, resp.Status, err)
			case hex.EncodeToString(sum[:]) != f.SHA256:
				t.Errorf("CDN GET %s (Accept-Encoding %q, Content-Encoding %q): decodes to other bytes than the manifest's", f.Path, ae, enc)
			case (ae == "") != (enc == ""):
				t.Errorf("CDN GET %s (Accept-Encoding %q): Content-Encoding %q", f.Path, ae, enc)
			case resp.Header.Get("Cache-Control") != assets.CacheImmutable || resp.Header.Get("Access-Control-Allow-Origin") != "*":
				t.Errorf("CDN GET %s: Cache-Control %q, Access-Control-Allow-Origin %q", f.Path, resp.Header.Get("Cache-Control"), resp.Header.Get("Access-Control-Allow-Origin"))
			}
		}
	}
}

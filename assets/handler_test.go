package assets_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
)

type fixture struct {
	reg *assets.Registry
	d   *assetstest.Dist
	h   http.Handler
	raw map[string][]byte // dist-relative path → identity bytes
}

func newFixture(t *testing.T, opts ...assets.Option) *fixture {
	t.Helper()
	reg, d := load(t, opts...)
	f := &fixture{reg: reg, d: d, h: reg.Handler(), raw: map[string][]byte{}}
	for _, file := range d.Manifest.Files {
		b, err := os.ReadFile(d.Dir + "/" + file.Path)
		if err != nil {
			t.Fatal(err)
		}
		f.raw[file.Path] = b
	}
	return f
}

func (f *fixture) file(p string) assets.File {
	for _, file := range f.d.Manifest.Files {
		if file.Path == p {
			return file
		}
	}
	panic("no file " + p)
}

func (f *fixture) do(method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://origin.test/x", nil)
	u, err := url.ParseRequestURI(target) // keeps dot segments, as a server does
	if err != nil {
		panic(err)
	}
	req.URL, req.RequestURI = u, target
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	return rec
}

func etag(sum, suffix string) string { return `"` + sum[:16] + suffix + `"` }

// TestHandlerHeaders covers every header rule of the origin, one row each.
func TestHandlerHeaders(t *testing.T) {
	f := newFixture(t)
	js := f.file(f.d.Asset)
	jsURL := "/" + f.d.Asset
	html := f.d.Manifest.Widgets[1].HTML // counter, hashed
	htmlFile := f.file(html)
	idTag, brTag, gzTag := etag(js.SHA256, ""), etag(js.SHA256, "-br"), etag(js.SHA256, "-gz")

	type want struct {
		status int
		hdr    map[string]string // "" value: header must be absent
		body   string            // "identity", "br", "gzip", "empty", or a literal prefix
	}
	tests := []struct {
		name   string
		method string
		target string
		hdr    map[string]string
		want   want
	}{
		{"identity without Accept-Encoding", "GET", jsURL, nil, want{200, map[string]string{
			"Content-Type": "text/javascript; charset=utf-8", "Content-Encoding": "", "Content-Length": itoa(js.Size),
			"Cache-Control": assets.CacheImmutable, "Etag": idTag, "Vary": "Accept-Encoding", "Accept-Ranges": "bytes",
			"Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin", "Timing-Allow-Origin": "*",
			"X-Content-Type-Options": "nosniff"}, "identity"}},
		{"br preferred", "GET", jsURL, map[string]string{"Accept-Encoding": "gzip, deflate, br, zstd"}, want{200, map[string]string{
			"Content-Encoding": "br", "Content-Length": itoa(js.Encodings[0].Size), "Etag": brTag, "Vary": "Accept-Encoding",
			"Content-Type": "text/javascript; charset=utf-8", "Accept-Ranges": ""}, "br"}},
		{"gzip only", "GET", jsURL, map[string]string{"Accept-Encoding": "gzip"}, want{200, map[string]string{
			"Content-Encoding": "gzip", "Content-Length": itoa(js.Encodings[1].Size), "Etag": gzTag}, "gzip"}},
		{"br;q=0 means no br", "GET", jsURL, map[string]string{"Accept-Encoding": "br;q=0, gzip"}, want{200, map[string]string{"Content-Encoding": "gzip"}, "gzip"}},
		{"client q order beats server order", "GET", jsURL, map[string]string{"Accept-Encoding": "br;q=0.5, gzip;q=0.9"}, want{200, map[string]string{"Content-Encoding": "gzip"}, "gzip"}},
		{"equal q server order", "GET", jsURL, map[string]string{"Accept-Encoding": "gzip;q=0.8, br;q=0.8"}, want{200, map[string]string{"Content-Encoding": "br"}, "br"}},
		{"x-gzip alias", "GET", jsURL, map[string]string{"Accept-Encoding": "x-gzip"}, want{200, map[string]string{"Content-Encoding": "gzip"}, "gzip"}},
		{"star", "GET", jsURL, map[string]string{"Accept-Encoding": "*"}, want{200, map[string]string{"Content-Encoding": "br"}, "br"}},
		{"star with br excluded", "GET", jsURL, map[string]string{"Accept-Encoding": "*, br;q=0"}, want{200, map[string]string{"Content-Encoding": "gzip"}, "gzip"}},
		{"star;q=0 with identity allowed", "GET", jsURL, map[string]string{"Accept-Encoding": "*;q=0, identity"}, want{200, map[string]string{"Content-Encoding": ""}, "identity"}},
		{"unknown codings only", "GET", jsURL, map[string]string{"Accept-Encoding": "zstd, deflate"}, want{200, map[string]string{"Content-Encoding": "", "Vary": "Accept-Encoding"}, "identity"}},
		{"empty Accept-Encoding", "GET", jsURL, map[string]string{"Accept-Encoding": ""}, want{200, map[string]string{"Content-Encoding": ""}, "identity"}},
		{"uppercase tokens", "GET", jsURL, map[string]string{"Accept-Encoding": "BR;Q=1"}, want{200, map[string]string{"Content-Encoding": "br"}, "br"}},
		{"malformed q ignored element", "GET", jsURL, map[string]string{"Accept-Encoding": "br;q=2, gzip"}, want{200, map[string]string{"Content-Encoding": "gzip"}, "gzip"}},
		{"identity;q=0 still gets br", "GET", jsURL, map[string]string{"Accept-Encoding": "identity;q=0, br"}, want{200, map[string]string{"Content-Encoding": "br"}, "br"}},
		{"nothing acceptable", "GET", jsURL, map[string]string{"Accept-Encoding": "identity;q=0"}, want{406, map[string]string{"Vary": "Accept-Encoding", "Etag": ""}, "406"}},
		{"nothing acceptable star", "GET", jsURL, map[string]string{"Accept-Encoding": "*;q=0"}, want{406, nil, "406"}},
		{"image without sidecars", "GET", "/" + f.d.Image, map[string]string{"Accept-Encoding": "br, gzip"}, want{200, map[string]string{
			"Content-Type": "image/png", "Content-Encoding": "", "Vary": "Accept-Encoding", "Cache-Control": assets.CacheImmutable}, "identity"}},
		{"HEAD identity", "HEAD", jsURL, nil, want{200, map[string]string{"Content-Length": itoa(js.Size), "Etag": idTag}, "empty"}},
		{"HEAD br", "HEAD", jsURL, map[string]string{"Accept-Encoding": "br"}, want{200, map[string]string{"Content-Length": itoa(js.Encodings[0].Size), "Content-Encoding": "br"}, "empty"}},
		{"304 exact", "GET", jsURL, map[string]string{"Accept-Encoding": "br", "If-None-Match": brTag}, want{304, map[string]string{
			"Etag": brTag, "Cache-Control": assets.CacheImmutable, "Vary": "Accept-Encoding", "Content-Length": "", "Content-Type": "", "Content-Encoding": ""}, "empty"}},
		{"304 weak", "GET", jsURL, map[string]string{"If-None-Match": "W/" + idTag}, want{304, map[string]string{"Etag": idTag}, "empty"}},
		{"304 list", "GET", jsURL, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": `"nope", ` + gzTag + `, "other"`}, want{304, map[string]string{"Etag": gzTag}, "empty"}},
		{"304 star", "GET", jsURL, map[string]string{"If-None-Match": "*"}, want{304, nil, "empty"}},
		{"other encoding's tag does not match", "GET", jsURL, map[string]string{"Accept-Encoding": "br", "If-None-Match": idTag}, want{200, map[string]string{"Etag": brTag}, "br"}},
		{"304 on HEAD", "HEAD", jsURL, map[string]string{"If-None-Match": idTag}, want{304, nil, "empty"}},
		{"range", "GET", jsURL, map[string]string{"Range": "bytes=0-99"}, want{206, map[string]string{
			"Content-Range": "bytes 0-99/" + itoa(js.Size), "Content-Length": "100", "Etag": idTag, "Content-Encoding": ""}, "range:0:100"}},
		{"range open end", "GET", jsURL, map[string]string{"Range": "bytes=100-"}, want{206, map[string]string{
			"Content-Range": "bytes 100-" + itoa(js.Size-1) + "/" + itoa(js.Size)}, "range:100:" + itoa(js.Size)}},
		{"range suffix", "GET", jsURL, map[string]string{"Range": "bytes=-10"}, want{206, map[string]string{"Content-Length": "10"}, "range:" + itoa(js.Size-10) + ":" + itoa(js.Size)}},
		{"range end clamped", "GET", jsURL, map[string]string{"Range": "bytes=10-999999"}, want{206, map[string]string{"Content-Length": itoa(js.Size - 10)}, "range:10:" + itoa(js.Size)}},
		{"range unsatisfiable", "GET", jsURL, map[string]string{"Range": "bytes=999999-"}, want{416, map[string]string{"Content-Range": "bytes */" + itoa(js.Size)}, "416"}},
		{"range on br body ignored", "GET", jsURL, map[string]string{"Range": "bytes=0-9", "Accept-Encoding": "br"}, want{200, map[string]string{"Content-Range": "", "Content-Encoding": "br"}, "br"}},
		{"multi range ignored", "GET", jsURL, map[string]string{"Range": "bytes=0-1,5-6"}, want{200, map[string]string{"Content-Range": ""}, "identity"}},
		{"other unit ignored", "GET", jsURL, map[string]string{"Range": "items=0-1"}, want{200, nil, "identity"}},
		{"if-range match", "GET", jsURL, map[string]string{"Range": "bytes=0-9", "If-Range": idTag}, want{206, nil, "range:0:10"}},
		{"if-range mismatch", "GET", jsURL, map[string]string{"Range": "bytes=0-9", "If-Range": `"old"`}, want{200, nil, "identity"}},
		{"hashed html immutable", "GET", "/" + html, nil, want{200, map[string]string{
			"Cache-Control": assets.CacheImmutable, "Content-Type": "text/html; charset=utf-8", "Etag": etag(htmlFile.SHA256, "")}, "html"}},
		{"alias html mutable", "GET", "/counter.html", map[string]string{"Accept-Encoding": "br"}, want{200, map[string]string{
			"Cache-Control": "no-cache", "Etag": etag(htmlFile.SHA256, "-br"), "Content-Encoding": "br"}, "br-html"}},
		{"alias revalidates", "GET", "/counter.html", map[string]string{"If-None-Match": etag(htmlFile.SHA256, "")}, want{304, map[string]string{"Cache-Control": "no-cache"}, "empty"}},
		{"manifest mutable", "GET", "/manifest.json", nil, want{200, map[string]string{
			"Cache-Control": "no-cache", "Content-Type": "application/json; charset=utf-8"}, "{"}},
		{"healthz", "GET", "/healthz", nil, want{200, map[string]string{"Cache-Control": "no-store"}, "ok"}},
		{"POST 405", "POST", jsURL, nil, want{405, map[string]string{"Allow": "GET, HEAD, OPTIONS"}, "405"}},
		{"DELETE 405", "DELETE", jsURL, nil, want{405, map[string]string{"Allow": "GET, HEAD, OPTIONS"}, "405"}},
		{"PUT unknown path 405", "PUT", "/assets/nope-ABCDEF12.js", nil, want{405, map[string]string{"Allow": "GET, HEAD, OPTIONS"}, "405"}},
		{"preflight", "OPTIONS", jsURL, map[string]string{"Origin": "https://abc.claudemcpcontent.com", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "range"}, want{204, map[string]string{
			"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET, HEAD", "Access-Control-Allow-Headers": "range", "Access-Control-Max-Age": "86400"}, "empty"}},
		{"plain OPTIONS", "OPTIONS", jsURL, nil, want{204, map[string]string{"Allow": "GET, HEAD, OPTIONS", "Access-Control-Allow-Methods": ""}, "empty"}},
		{"unknown 404", "GET", "/assets/nope-ABCDEF12.js", nil, want{404, map[string]string{"Cache-Control": "no-store", "Etag": ""}, "404"}},
		{"root no listing", "GET", "/", nil, want{404, nil, "404"}},
		{"dir no listing", "GET", "/assets/", nil, want{400, nil, "400"}},
		{"dir no slash", "GET", "/assets", nil, want{404, nil, "404"}},
		{"sidecar not served", "GET", jsURL + ".br", nil, want{404, nil, "404"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.do(tc.method, tc.target, tc.hdr)
			if rec.Code != tc.want.status {
				t.Fatalf("status %d, want %d; headers %v; body %q", rec.Code, tc.want.status, rec.Header(), rec.Body.String())
			}
			for k, v := range tc.want.hdr {
				got, present := rec.Header()[http.CanonicalHeaderKey(k)]
				if v == "" {
					if present {
						t.Errorf("header %s = %q, want absent", k, got)
					}
					continue
				}
				if len(got) != 1 || got[0] != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
			body := rec.Body.Bytes()
			src := f.raw[strings.TrimPrefix(tc.target, "/")]
			switch b := tc.want.body; {
			case b == "empty":
				if len(body) != 0 {
					t.Errorf("body has %d bytes, want none", len(body))
				}
			case b == "identity":
				if !bytes.Equal(body, src) {
					t.Errorf("body is not the identity file (%d bytes, want %d)", len(body), len(src))
				}
			case b == "br", b == "gzip", b == "br-html":
				if b == "br-html" {
					src, b = f.raw[html], "br"
				}
				if got := decode(t, b, body); !bytes.Equal(got, src) {
					t.Errorf("%s body does not decode to the file", b)
				}
				if cl := rec.Header().Get("Content-Length"); cl != itoa(int64(len(body))) {
					t.Errorf("Content-Length %s, body %d bytes", cl, len(body))
				}
			case b == "html":
				if !bytes.Equal(body, f.raw[html]) {
					t.Errorf("body is not the html file")
				}
			case strings.HasPrefix(b, "range:"):
				var from, to int
				parts := strings.Split(b, ":")
				from, to = atoi(parts[1]), atoi(parts[2])
				if !bytes.Equal(body, src[from:to]) {
					t.Errorf("range body = %q, want bytes %d-%d", body, from, to)
				}
			default:
				if !strings.HasPrefix(string(body), b) {
					t.Errorf("body %q does not start with %q", body, b)
				}
			}
		})
	}
}

// TestTraversal sends path tricks; none may return a file, and none may be
// answered by anything but 400 or 404.
func TestTraversal(t *testing.T) {
	f := newFixture(t)
	corpus := []string{
		"/../manifest.json", "/assets/../manifest.json", "/assets/%2e%2e/manifest.json", "/%2e%2e/%2e%2e/etc/passwd",
		"/assets%2f" + path.Base(f.d.Asset), "/assets%2F" + path.Base(f.d.Asset), "/assets%5c" + path.Base(f.d.Asset),
		"/assets\\" + path.Base(f.d.Asset), "//" + f.d.Asset, "/assets//" + path.Base(f.d.Asset), "/" + f.d.Asset + "%00",
		"/" + f.d.Asset + "/", "/./" + f.d.Asset, "/assets/./" + path.Base(f.d.Asset), "/%2e/" + f.d.Asset,
		"/.%2e/manifest.json", "/assets/..%2fmanifest.json", "/etc/passwd", "/assets/", "/..", "/.", "/%00",
		"/" + strings.ToUpper(f.d.Asset), "/" + f.d.Asset + ".gz",
	}
	for _, target := range corpus {
		req := httptest.NewRequest("GET", "http://origin.test/", nil)
		u, err := url.ParseRequestURI(target)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		req.URL = u
		rec := httptest.NewRecorder()
		f.h.ServeHTTP(rec, req)
		if rec.Code != 400 && rec.Code != 404 {
			t.Errorf("%s: status %d, want 400 or 404", target, rec.Code)
		}
	}
}

// TestHandlerRealServer checks behaviour a recorder cannot show: HEAD bodies
// dropped on the wire, Content-Length honoured by a real client, and the
// base path option.
func TestHandlerRealServer(t *testing.T) {
	f := newFixture(t, assets.WithBasePath("/widgets"))
	mux := http.NewServeMux()
	mux.Handle("/widgets/", f.reg.Handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}

	req, _ := http.NewRequest("GET", srv.URL+"/widgets/"+f.d.Asset, nil)
	req.Header.Set("Accept-Encoding", "br")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "br" || resp.ContentLength != int64(len(body)) {
		t.Fatalf("GET: %d %v, %d bytes", resp.StatusCode, resp.Header, len(body))
	}
	if !bytes.Equal(decode(t, "br", body), f.raw[f.d.Asset]) {
		t.Error("br body does not decode to the file")
	}
	if got := f.reg.FileURL(f.d.Asset); got != "/widgets/"+f.d.Asset {
		t.Errorf("FileURL = %q", got)
	}

	req, _ = http.NewRequest("HEAD", srv.URL+"/widgets/"+f.d.Asset, nil)
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ContentLength != f.file(f.d.Asset).Size {
		t.Errorf("HEAD: %d, Content-Length %d", resp.StatusCode, resp.ContentLength)
	}

	for _, p := range []string{"/" + f.d.Asset, "/widgets", "/widgetsx/" + f.d.Asset} {
		resp, err := c.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 && resp.StatusCode != 301 {
			t.Errorf("GET %s outside the base path: %d", p, resp.StatusCode)
		}
	}
}

func decode(t *testing.T, enc string, b []byte) []byte {
	t.Helper()
	var r io.Reader
	switch enc {
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	case "gzip":
		gr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = gr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s decode: %v", enc, err)
	}
	return out
}

func itoa(n int64) string { return strconvI(n) }

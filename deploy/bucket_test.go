package deploy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/widgetd/widgetd/assets"
)

// rawClient reads objects as a CDN does: no transparent decompression.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 30 * time.Second}

// keysOf returns the dist/-relative keys a deploy of m puts.
func keysOf(m *assets.Manifest, sidecars bool) map[string]bool {
	keys := map[string]bool{assets.ManifestFile: true, assets.HeadersFile: true}
	for _, f := range m.Files {
		keys[f.Path] = true
		for _, e := range f.Encodings {
			if sidecars {
				keys[e.Path] = true
			}
		}
	}
	return keys
}

// deployed runs Deploy with s's client and checks that Result.Requests is
// the number of HTTP requests the store received from it.
func deployed(t *testing.T, s *store, o Options) (Result, []string) {
	t.Helper()
	var mu sync.Mutex
	var puts []string
	o.Progress = func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		if !e.Deleted {
			puts = append(puts, e.Key)
		}
	}
	before := s.requests.Load()
	res, err := Deploy(context.Background(), s.client, o)
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	if sent := s.requests.Load() - before; int64(res.Requests) != sent {
		t.Errorf("Result.Requests = %d, the store got %d requests", res.Requests, sent)
	}
	sort.Strings(puts)
	return res, puts
}

// sameSet fails t unless got holds exactly the keys of want.
func sameSet(t *testing.T, what string, got []string, want map[string]bool) {
	t.Helper()
	var w []string
	for k := range want {
		w = append(w, k)
	}
	sort.Strings(w)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(w, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, w)
	}
}

// get fetches a key anonymously over HTTP, as the CDN in front does.
func get(t *testing.T, s *store, key string) (*http.Response, []byte) {
	t.Helper()
	resp, err := rawClient.Get(s.objectURL(key))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// checkServed reads back over HTTP every object a deploy of the manifest
// served at prefix puts, and checks its bytes and headers.
func checkServed(t *testing.T, s *store, prefix string, m *assets.Manifest, sidecars bool) {
	t.Helper()
	check := func(key string, size int64, sum, ctype, cache, enc string) {
		resp, body := get(t, s, prefix+key)
		got := sha256.Sum256(body)
		switch {
		case resp.StatusCode != http.StatusOK:
			t.Errorf("GET %s: %s", key, resp.Status)
		case hex.EncodeToString(got[:]) != sum || int64(len(body)) != size:
			t.Errorf("GET %s: %d bytes with another sha256 than the manifest's", key, len(body))
		case resp.Header.Get("Content-Type") != ctype, resp.Header.Get("Cache-Control") != cache,
			resp.Header.Get("Content-Encoding") != enc, resp.Header.Get("X-Amz-Meta-Sha256") != sum:
			t.Errorf("GET %s: Content-Type %q, Cache-Control %q, Content-Encoding %q, x-amz-meta-sha256 %q; want %q, %q, %q, %s",
				key, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), resp.Header.Get("Content-Encoding"),
				resp.Header.Get("X-Amz-Meta-Sha256"), ctype, cache, enc, sum)
		}
	}
	for _, f := range m.Files {
		cache := assets.CacheRevalidate
		if f.Immutable {
			cache = assets.CacheImmutable
		}
		check(f.Path, f.Size, f.SHA256, f.ContentType, cache, "")
		for _, e := range f.Encodings {
			if sidecars {
				check(e.Path, e.Size, e.SHA256, f.ContentType, cache, e.Name)
			}
		}
	}
	resp, body := get(t, s, prefix+assets.ManifestFile)
	var served assets.Manifest
	if err := json.Unmarshal(body, &served); err != nil || served.BuildID != m.BuildID {
		t.Errorf("served manifest.json: build %q (%v), want %s", served.BuildID, err, m.BuildID)
	}
	if resp.Header.Get("Cache-Control") != assets.CacheRevalidate || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("manifest.json: Cache-Control %q, Content-Type %q", resp.Header.Get("Cache-Control"), resp.Header.Get("Content-Type"))
	}
}

// servedManifest returns the manifest the bucket serves at prefix.
func servedManifest(t *testing.T, s *store, prefix string) *assets.Manifest {
	t.Helper()
	resp, body := get(t, s, prefix+assets.ManifestFile)
	var m assets.Manifest
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &m) != nil {
		t.Fatalf("GET manifest.json: %s", resp.Status)
	}
	return &m
}

// listKeys returns the dist/-relative keys under prefix.
func listKeys(t *testing.T, s *store, prefix string) map[string]bool {
	t.Helper()
	keys := map[string]bool{}
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range page.Contents {
			keys[strings.TrimPrefix(aws.ToString(o.Key), prefix)] = true
		}
	}
	return keys
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// minus returns the keys of a not in b.
func minus(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		if !b[k] {
			out[k] = true
		}
	}
	return out
}

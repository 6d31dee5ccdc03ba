package precompress

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// text is compressible test content of n bytes.
func text(n int) []byte {
	return bytes.Repeat([]byte("widgetd compresses this line once per machine\n"), n/46+1)[:n]
}

// TestEncodeDecode: each encoding round-trips, the same input gives the
// same bytes every time (no name or time in a gzip header), brotli's window
// fits the input, and an unknown encoding is an error both ways.
func TestEncodeDecode(t *testing.T) {
	for _, n := range []int{0, 1, MinSize, 70_000, 300_000} {
		data := text(n)
		for _, enc := range Encodings() {
			a, err := Encode(enc, data)
			if err != nil {
				t.Fatalf("%s of %d bytes: %v", enc, n, err)
			}
			b, _ := Encode(enc, data)
			if !bytes.Equal(a, b) {
				t.Errorf("%s of %d bytes: two encodings differ", enc, n)
			}
			plain, err := Decode(enc, a)
			if err != nil || !bytes.Equal(plain, data) {
				t.Errorf("%s of %d bytes does not round-trip (%v)", enc, n, err)
			}
		}
	}
	if _, err := Encode("zstd", []byte("x")); err == nil {
		t.Error("Encode accepted zstd")
	}
	if _, err := Decode("zstd", []byte("x")); err == nil {
		t.Error("Decode accepted zstd")
	}
	for n, want := range map[int]int{0: 16, 1 << 16: 17, 1<<16 - 16: 16, 1 << 20: 21, 64 << 20: 22} {
		if got := brotliWindow(n); got != want {
			t.Errorf("brotliWindow(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestCompressible: text, JSON, SVG, WASM and uncompressed fonts and
// images are worth compressing; already-compressed formats are not.
func TestCompressible(t *testing.T) {
	for ct, want := range map[string]bool{
		"text/html; charset=utf-8": true, "text/css; charset=utf-8": true, "application/json": true, "image/svg+xml": true,
		"application/wasm": true, "font/ttf": true, "font/otf": true, "image/x-icon": true, "image/bmp": true,
		"image/png": false, "image/webp": false, "font/woff2": false, "video/mp4": false, "application/octet-stream": false,
	} {
		if got := Compressible(ct); got != want {
			t.Errorf("Compressible(%q) = %v, want %v", ct, got, want)
		}
	}
}

// TestCacheServesOnlyWhatItStored: an encoding stored on disk is found by a
// new Cache over the same folder; a damaged entry is never served and is
// removed; the fallback (the previous dist/) is asked last and what it gives
// is stored.
func TestCacheServesOnlyWhatItStored(t *testing.T) {
	dir := t.TempDir()
	data := text(10_000)
	sum := sha256Hex(data)
	first := NewCache(dir)
	br, err := first.Encode(sum, "br", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := NewCache(dir).Get(sum, "br"); !bytes.Equal(got, br) {
		t.Fatal("a new Cache over the same folder does not find the stored entry")
	}
	if err := os.WriteFile(first.path(sum, "br"), []byte("not brotli"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := NewCache(dir).Get(sum, "br"); got != nil {
		t.Fatal("a damaged entry was served")
	}
	if _, err := os.Stat(first.path(sum, "br")); !os.IsNotExist(err) {
		t.Errorf("the damaged entry is still there: %v", err)
	}
	c := NewCache(dir)
	asked := 0
	c.SetFallback(func(s, enc string) []byte {
		asked++
		if s == sum && enc == "br" {
			return br
		}
		return nil
	})
	if got := c.Get(sum, "br"); !bytes.Equal(got, br) || asked != 1 {
		t.Fatalf("fallback: got %d bytes, asked %d times", len(got), asked)
	}
	if got := NewCache(dir).Get(sum, "br"); !bytes.Equal(got, br) {
		t.Error("what the fallback gave was not stored")
	}
	if got := NewCache("").Get(sum, "br"); got != nil {
		t.Error("a memory-only Cache found an entry on disk")
	}
}

// TestEncodeAll: every job is encoded, the cache's encodings are counted as
// hits and the rest as misses, and a cancelled context stops the run with
// its error.
func TestEncodeAll(t *testing.T) {
	c := NewCache(t.TempDir())
	var jobs []Job
	for i := range 5 {
		data := text(1000 + i)
		for _, enc := range Encodings() {
			jobs = append(jobs, Job{Sum: sha256Hex(data), Enc: enc, Data: data})
		}
	}
	for round, want := range [][2]int{{0, len(jobs)}, {len(jobs), len(jobs)}} {
		out, err := c.EncodeAll(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		for i, j := range jobs {
			if plain, err := Decode(j.Enc, out[i]); err != nil || !bytes.Equal(plain, j.Data) {
				t.Errorf("round %d, job %d: does not decode to its data (%v)", round, i, err)
			}
		}
		if hits, misses := c.Counts(); hits != want[0] || misses != want[1] {
			t.Errorf("round %d: %d hits, %d misses; want %d, %d", round, hits, misses, want[0], want[1])
		}
	}
	// A worker ready for a job competes with the cancellation at each
	// hand-out: among 400 jobs it is all but certain to lose once.
	many := make([]Job, 400)
	for i := range many {
		many[i] = Job{Sum: sha256Hex([]byte{byte(i)}), Enc: "gzip", Data: []byte{byte(i)}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewCache("").EncodeAll(ctx, many); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: err = %v", err)
	}
}

// TestCachePrune: over the limit, the least recently used entries go
// first, down to 80 % of it.
func TestCachePrune(t *testing.T) {
	dir := t.TempDir()
	c := NewCache(dir)
	old := time.Now().Add(-time.Hour)
	for i, sum := range []string{"aa01", "bb02", "cc03", "dd04"} {
		c.Put(sum, "br", make([]byte, 1000))
		// Older entries were used longer ago.
		when := old.Add(time.Duration(i) * time.Minute)
		os.Chtimes(c.path(sum, "br"), when, when)
	}
	c.Prune(2500)
	var left []string
	for _, sum := range []string{"aa01", "bb02", "cc03", "dd04"} {
		if _, err := os.Stat(c.path(sum, "br")); err == nil {
			left = append(left, sum)
		}
	}
	if strings.Join(left, ",") != "cc03,dd04" {
		t.Errorf("prune kept %v, want the two most recently used", left)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "*", "*")); len(entries) != 2 {
		t.Errorf("%d entries left on disk, want 2", len(entries))
	}
}

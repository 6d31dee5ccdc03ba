package bundler

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/widgetd/widgetd/internal/atomicfile"
)

// Compression settings: the files are compressed once per content and served
// many times, so the slowest, smallest settings pay for themselves.
const (
	brotliQuality = brotli.BestCompression // q11
	gzipLevel     = gzip.BestCompression   // 9
	// minCompressSize is the size below which compression never pays once
	// headers are counted.
	minCompressSize = 256
	// maxCompressRatio is the largest encoded/identity ratio worth keeping.
	maxCompressRatio = 0.95
)

// encodingSuffix maps a Content-Encoding token to its sidecar suffix.
var encodingSuffix = map[string]string{"br": ".br", "gzip": ".gz"}

// encodingOrder is the order encodings are listed in (best first).
var encodingOrder = []string{"br", "gzip"}

// compressible reports whether a content type benefits from compression
// (already-compressed images, fonts and media do not).
func compressible(ct string) bool {
	switch {
	case strings.HasPrefix(ct, "text/"), strings.HasPrefix(ct, "application/json"),
		ct == "image/svg+xml", ct == "application/wasm", ct == "font/ttf", ct == "font/otf",
		ct == "application/vnd.ms-fontobject", ct == "image/x-icon", ct == "image/bmp":
		return true
	}
	return false
}

// compressCache remembers encoded bytes by the SHA-256 of the identity bytes
// and encoding, so an unchanged file is never compressed twice: in memory for
// one Builder, on disk (dir) across builds and output folders, and in the
// previous dist/ (fallback). It is safe for concurrent use.
type compressCache struct {
	mu sync.Mutex
	m  map[string][]byte
	// dir is the persistent cache folder; "" means none.
	dir string
	// fallback looks an encoding up elsewhere (the previous dist/); nil
	// result means not found.
	fallback func(sum, enc string) []byte
	// hits and misses count lookups, for the build summary; stored counts
	// entries written to dir since the last prune.
	hits, misses, stored int
}

// maxCacheBytes bounds the persistent cache; the least recently used entries
// go first.
const maxCacheBytes = 256 << 20

func newCompressCache(dir string) *compressCache {
	return &compressCache{m: map[string][]byte{}, dir: dir}
}

func (c *compressCache) get(sum, enc string) []byte {
	c.mu.Lock()
	b, ok := c.m[sum+"/"+enc]
	fb := c.fallback
	c.mu.Unlock()
	if ok {
		return b
	}
	if b := c.load(sum, enc); b != nil {
		c.remember(sum, enc, b)
		return b
	}
	if fb != nil {
		if b := fb(sum, enc); b != nil {
			c.put(sum, enc, b)
			return b
		}
	}
	return nil
}

// setFallback sets where get looks after memory and disk (the bridge
// measurement may be reading the cache at the same time).
func (c *compressCache) setFallback(fb func(sum, enc string) []byte) {
	c.mu.Lock()
	c.fallback = fb
	c.mu.Unlock()
}

func (c *compressCache) remember(sum, enc string, b []byte) {
	c.mu.Lock()
	c.m[sum+"/"+enc] = b
	c.mu.Unlock()
}

// put remembers b and stores it on disk.
func (c *compressCache) put(sum, enc string, b []byte) {
	c.remember(sum, enc, b)
	if c.dir == "" {
		return
	}
	p := c.path(sum, enc)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	// Atomic, so a killed build never leaves a truncated entry behind.
	if atomicfile.Write(p, b) != nil {
		return
	}
	c.mu.Lock()
	c.stored++
	c.mu.Unlock()
}

func (c *compressCache) path(sum, enc string) string {
	return filepath.Join(c.dir, sum[:2], sum+encodingSuffix[enc])
}

// load reads an entry from disk and returns it only if it decodes to bytes
// with the expected hash: a damaged or tampered entry is never served.
func (c *compressCache) load(sum, enc string) []byte {
	if c.dir == "" || len(sum) < 2 {
		return nil
	}
	p := c.path(sum, enc)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	plain, err := decode(enc, b)
	if err != nil || sha256Hex(plain) != sum {
		os.Remove(p)
		return nil
	}
	now := time.Now()
	os.Chtimes(p, now, now) // recently used: pruned last
	return b
}

// prune trims the persistent cache to limit bytes when this Builder added
// entries, removing the least recently used first (down to 80 % of limit).
func (c *compressCache) prune(limit int64) {
	c.mu.Lock()
	stored := c.stored
	c.stored = 0
	c.mu.Unlock()
	if c.dir == "" || stored == 0 {
		return
	}
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var entries []entry
	var total int64
	filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			entries = append(entries, entry{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
		return nil
	})
	if total <= limit {
		return
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].used.Before(entries[j].used) })
	for _, e := range entries {
		if total <= limit*8/10 {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
}

// maxDecoded bounds what a cache entry may decode to.
const maxDecoded = 256 << 20

// decode reverses encode.
func decode(enc string, data []byte) ([]byte, error) {
	var r io.Reader
	switch enc {
	case "br":
		r = brotli.NewReader(bytes.NewReader(data))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		r = zr
	default:
		return nil, fmt.Errorf("unknown encoding %q", enc)
	}
	return io.ReadAll(io.LimitReader(r, maxDecoded))
}

// brotliWindow is the smallest brotli window (log2, 16–22) that holds n
// bytes. A window larger than the input finds no further match, but the q11
// encoder clears a match tree of 2×2^LGWin entries per file (32 MiB at 22):
// sizing it to the file makes small files several times faster and changes
// only the window bits in the stream header.
func brotliWindow(n int) int {
	lg := 16
	for lg < 22 && 1<<lg-16 < n {
		lg++
	}
	return lg
}

// encode compresses data with the named encoding.
func encode(enc string, data []byte) ([]byte, error) {
	var buf bytes.Buffer
	switch enc {
	case "br":
		w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotliQuality, LGWin: brotliWindow(len(data))})
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
	case "gzip":
		w, err := gzip.NewWriterLevel(&buf, gzipLevel)
		if err != nil {
			return nil, err
		}
		// No name or mtime in the header: same input, same bytes.
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// precompress fills in the encodings of every compressible file of at least
// minCompressSize bytes (widget HTML only with precompressHTML; retained
// files keep theirs), in parallel across cores, reusing cached encodings,
// and keeps an encoding only when it saves more than maxCompressRatio
// allows. A NoCompress build does not call it.
func (b *Builder) precompress(ctx context.Context, files []*distFile) error {
	jobs := b.compressJobs(files)
	if b.progress != nil && len(jobs) > 0 {
		note := func() {
			b.progress(fmt.Sprintf("compressing %d file(s) with brotli and gzip; files not in the cache (%s) take a while on a first build", len(jobs)/len(encodingOrder), b.cacheNote()))
		}
		if b.progressDelay <= 0 {
			note()
		} else {
			defer time.AfterFunc(b.progressDelay, note).Stop()
		}
	}
	results, err := b.runCompressJobs(ctx, jobs)
	if err != nil {
		return err
	}
	keepEncodings(jobs, results)
	return nil
}

// cacheNote names the compression cache folder for a progress note.
func (b *Builder) cacheNote() string {
	if b.cache.dir == "" {
		return "no cache folder"
	}
	return b.displayPath(b.cache.dir)
}

// compressJob is one encoding of one file.
type compressJob struct {
	f   *distFile
	enc string
}

// compressJobs lists the encodings precompress makes, biggest file first so
// the slowest jobs start early.
func (b *Builder) compressJobs(files []*distFile) []compressJob {
	var jobs []compressJob
	for _, f := range files {
		if f.source != nil || !compressible(f.ContentType) || len(f.data) < minCompressSize {
			continue // retained files keep their encodings
		}
		if f.document && !b.precompressHTML {
			continue // reaches hosts as resources/read text, not over HTTP
		}
		for _, enc := range encodingOrder {
			jobs = append(jobs, compressJob{f, enc})
		}
	}
	sort.SliceStable(jobs, func(i, j int) bool { return len(jobs[i].f.data) > len(jobs[j].f.data) })
	return jobs
}

// runCompressJobs encodes every job on GOMAXPROCS workers, taking what the
// cache has, and returns the encoded bytes by job. It stops handing out
// jobs when ctx ends.
func (b *Builder) runCompressJobs(ctx context.Context, jobs []compressJob) ([][]byte, error) {
	results := make([][]byte, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = b.encodeCached(jobs[i])
			}
		}()
	}
	var cancelled error
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			cancelled = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if cancelled != nil {
		return nil, cancelled
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

// encodeCached returns the job's encoding from the cache, or encodes it and
// caches the result, counting hits and misses for the build summary.
func (b *Builder) encodeCached(j compressJob) ([]byte, error) {
	if cached := b.cache.get(j.f.SHA256, j.enc); cached != nil {
		b.cache.mu.Lock()
		b.cache.hits++
		b.cache.mu.Unlock()
		return cached, nil
	}
	out, err := encode(j.enc, j.f.data)
	if err != nil {
		return nil, err
	}
	b.cache.put(j.f.SHA256, j.enc, out)
	b.cache.mu.Lock()
	b.cache.misses++
	b.cache.mu.Unlock()
	return out, nil
}

// keepEncodings sets each compressed file's encodings, in encodingOrder,
// leaving out an encoding larger than maxCompressRatio of the file.
func keepEncodings(jobs []compressJob, results [][]byte) {
	byFile := map[*distFile]map[string][]byte{}
	for i, j := range jobs {
		if byFile[j.f] == nil {
			byFile[j.f] = map[string][]byte{}
		}
		byFile[j.f][j.enc] = results[i]
	}
	for f, encs := range byFile {
		f.encoded = map[string][]byte{}
		for _, enc := range encodingOrder {
			data := encs[enc]
			if data == nil || float64(len(data)) > maxCompressRatio*float64(len(f.data)) {
				continue
			}
			f.encoded[enc] = data
		}
	}
}

func sha256Hex(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

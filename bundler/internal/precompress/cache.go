package precompress

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/widgetd/widgetd/internal/atomicfile"
)

// MaxCacheBytes bounds the persistent cache; the least recently used entries
// go first.
const MaxCacheBytes = 256 << 20

// Cache remembers encoded bytes by the SHA-256 of the identity bytes and
// encoding, so an unchanged file is never compressed twice: in memory for
// one Builder, on disk (dir) across builds and output folders, and in the
// previous dist/ (fallback). It is safe for concurrent use.
type Cache struct {
	mu sync.Mutex
	m  map[string][]byte
	// dir is the persistent cache folder; "" means none.
	dir string
	// fallback looks an encoding up elsewhere (the previous dist/); nil
	// result means not found.
	fallback func(sum, enc string) []byte
	// hits and misses count EncodeAll's lookups, for the build summary;
	// stored counts entries written to dir since the last prune.
	hits, misses, stored int
}

// NewCache returns a cache keeping its entries in dir ("" for memory only).
func NewCache(dir string) *Cache {
	return &Cache{m: map[string][]byte{}, dir: dir}
}

// Dir is the persistent cache folder, "" when there is none.
func (c *Cache) Dir() string { return c.dir }

// Counts returns how many of EncodeAll's encodings came from the cache
// (hits) and how many were compressed (misses) so far.
func (c *Cache) Counts() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// Get returns the encoding enc of the bytes whose SHA-256 is sum, from
// memory, disk or the fallback; nil when none has it.
func (c *Cache) Get(sum, enc string) []byte {
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
			c.Put(sum, enc, b)
			return b
		}
	}
	return nil
}

// SetFallback sets where Get looks after memory and disk (the bridge
// measurement may be reading the cache at the same time).
func (c *Cache) SetFallback(fb func(sum, enc string) []byte) {
	c.mu.Lock()
	c.fallback = fb
	c.mu.Unlock()
}

func (c *Cache) remember(sum, enc string, b []byte) {
	c.mu.Lock()
	c.m[sum+"/"+enc] = b
	c.mu.Unlock()
}

// Put remembers b and stores it on disk. A failure to store only costs a
// later build the reuse.
func (c *Cache) Put(sum, enc string, b []byte) {
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

func (c *Cache) path(sum, enc string) string {
	return filepath.Join(c.dir, sum[:2], sum+suffixes[enc])
}

// load reads an entry from disk and returns it only if it decodes to bytes
// with the expected hash: a damaged or tampered entry is never served.
func (c *Cache) load(sum, enc string) []byte {
	if c.dir == "" || len(sum) < 2 {
		return nil
	}
	p := c.path(sum, enc)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	plain, err := Decode(enc, b)
	if err != nil || sha256Hex(plain) != sum {
		os.Remove(p)
		return nil
	}
	now := time.Now()
	os.Chtimes(p, now, now) // recently used: pruned last
	return b
}

// Prune trims the persistent cache to limit bytes when this Cache added
// entries, removing the least recently used first (down to 80 % of limit).
func (c *Cache) Prune(limit int64) {
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

// Encode returns the encoding enc of data (whose SHA-256 is sum) from the
// cache, or compresses it and caches the result; it counts nothing.
func (c *Cache) Encode(sum, enc string, data []byte) ([]byte, error) {
	if out := c.Get(sum, enc); out != nil {
		return out, nil
	}
	out, err := Encode(enc, data)
	if err != nil {
		return nil, err
	}
	c.Put(sum, enc, out)
	return out, nil
}

// Job is one encoding of one file: its bytes, their SHA-256, the encoding.
type Job struct {
	Sum, Enc string
	Data     []byte
}

// EncodeAll encodes every job on GOMAXPROCS workers, taking what the cache
// has (counted as hits, the rest as misses), and returns the encoded bytes
// by job. It stops handing out jobs when ctx ends.
func (c *Cache) EncodeAll(ctx context.Context, jobs []Job) ([][]byte, error) {
	results := make([][]byte, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = c.encodeCounted(jobs[i])
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

// encodeCounted is Encode, counting a hit or a miss.
func (c *Cache) encodeCounted(j Job) ([]byte, error) {
	if cached := c.Get(j.Sum, j.Enc); cached != nil {
		c.mu.Lock()
		c.hits++
		c.mu.Unlock()
		return cached, nil
	}
	out, err := Encode(j.Enc, j.Data)
	if err != nil {
		return nil, err
	}
	c.Put(j.Sum, j.Enc, out)
	c.mu.Lock()
	c.misses++
	c.mu.Unlock()
	return out, nil
}

func sha256Hex(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

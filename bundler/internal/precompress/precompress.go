// Package precompress makes the .br and .gz sidecars of dist/'s files:
// which files are worth compressing, brotli q11 and gzip 9 with the same
// bytes for the same input, and a cache of encodings by content hash (in
// memory, on disk across builds and output folders, and in the previous
// dist/) so an unchanged file is compressed once per machine. It is its own
// package because it knows nothing of widgets or manifests: the bundler
// picks the files and decides where the sidecars go.
package precompress

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
)

// Compression settings: the files are compressed once per content and served
// many times, so the slowest, smallest settings pay for themselves.
const (
	brotliQuality = brotli.BestCompression // q11
	gzipLevel     = gzip.BestCompression   // 9
	// MinSize is the size below which compression never pays once headers
	// are counted.
	MinSize = 256
	// MaxRatio is the largest encoded/identity ratio worth keeping.
	MaxRatio = 0.95
)

// suffixes maps a Content-Encoding token to its sidecar suffix.
var suffixes = map[string]string{"br": ".br", "gzip": ".gz"}

// Suffix is the sidecar suffix of encoding enc (".br", ".gz").
func Suffix(enc string) string { return suffixes[enc] }

// Encodings are the Content-Encoding tokens made, in the order a manifest
// lists them (best first).
func Encodings() []string { return []string{"br", "gzip"} }

// Compressible reports whether a content type benefits from compression
// (already-compressed images, fonts and media do not).
func Compressible(ct string) bool {
	switch {
	case strings.HasPrefix(ct, "text/"), strings.HasPrefix(ct, "application/json"),
		ct == "image/svg+xml", ct == "application/wasm", ct == "font/ttf", ct == "font/otf",
		ct == "application/vnd.ms-fontobject", ct == "image/x-icon", ct == "image/bmp":
		return true
	}
	return false
}

// maxDecoded bounds what a cache entry may decode to.
const maxDecoded = 256 << 20

// Decode reverses Encode (at most 256 MiB of output).
func Decode(enc string, data []byte) ([]byte, error) {
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

// Encode compresses data with the named encoding ("br" or "gzip"); the same
// data always encodes to the same bytes.
func Encode(enc string, data []byte) ([]byte, error) {
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
	default:
		return nil, fmt.Errorf("unknown encoding %q", enc)
	}
	return buf.Bytes(), nil
}

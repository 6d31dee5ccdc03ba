package bundler

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/widgetd/widgetd/bundler/internal/precompress"
)

// What is compressed and how is bundler/internal/precompress; which of a
// build's files get sidecars is here.

// precompress fills in the encodings of every compressible file of at least
// precompress.MinSize bytes (widget HTML only with precompressHTML; retained
// files keep theirs), in parallel across cores, reusing cached encodings,
// and keeps an encoding only when it saves more than precompress.MaxRatio
// allows. A NoCompress build does not call it.
func (b *Builder) precompress(ctx context.Context, files []*distFile) error {
	jobs := b.compressJobs(files)
	if b.progress != nil && len(jobs) > 0 {
		note := func() {
			b.progress(fmt.Sprintf("compressing %d file(s) with brotli and gzip; files not in the cache (%s) take a while on a first build", len(jobs)/len(precompress.Encodings()), b.cacheNote()))
		}
		if b.progressDelay <= 0 {
			note()
		} else {
			defer time.AfterFunc(b.progressDelay, note).Stop()
		}
	}
	encode := make([]precompress.Job, len(jobs))
	for i, j := range jobs {
		encode[i] = precompress.Job{Sum: j.f.SHA256, Enc: j.enc, Data: j.f.data}
	}
	results, err := b.cache.EncodeAll(ctx, encode)
	if err != nil {
		return err
	}
	keepEncodings(jobs, results)
	return nil
}

// cacheNote names the compression cache folder for a progress note.
func (b *Builder) cacheNote() string {
	if b.cache.Dir() == "" {
		return "no cache folder"
	}
	return b.displayPath(b.cache.Dir())
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
		if f.source != nil || !precompress.Compressible(f.ContentType) || len(f.data) < precompress.MinSize {
			continue // retained files keep their encodings
		}
		if f.document && !b.precompressHTML {
			continue // reaches hosts as resources/read text, not over HTTP
		}
		for _, enc := range precompress.Encodings() {
			jobs = append(jobs, compressJob{f, enc})
		}
	}
	sort.SliceStable(jobs, func(i, j int) bool { return len(jobs[i].f.data) > len(jobs[j].f.data) })
	return jobs
}

// keepEncodings sets each compressed file's encodings, in the order of precompress.Encodings,
// leaving out an encoding larger than precompress.MaxRatio of the file.
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
		for _, enc := range precompress.Encodings() {
			data := encs[enc]
			if data == nil || float64(len(data)) > precompress.MaxRatio*float64(len(f.data)) {
				continue
			}
			f.encoded[enc] = data
		}
	}
}

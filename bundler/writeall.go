package bundler

import (
	"os"
	"path"
	"path/filepath"
	"sync"
)

// writeJob is one file of a new dist/: new bytes, or a retained file copied
// (hard-linked) from the previous dist/ folder from.
type writeJob struct {
	rel  string // slash path inside dist/
	data []byte
	from string // previous dist/ folder of a retained file; "" for new data
}

// maxWriters bounds the files written at once. Writing a dist/ is mostly
// open/link/close system calls whose latency, not CPU, bounds a big build, so
// a few run at a time.
const maxWriters = 8

// writeAll creates every folder the jobs need, then writes or links the
// files a few at a time. The first error (in job order) is returned.
func writeAll(root string, jobs []writeJob) error {
	dirs := map[string]bool{}
	for _, j := range jobs {
		if d := path.Dir(j.rel); d != "." && !dirs[d] {
			dirs[d] = true
			if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
				return err
			}
		}
	}
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(maxWriters, len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				if j.from != "" {
					errs[i] = copyInto(root, j.from, j.rel)
				} else {
					errs[i] = writeFile(root, j.rel, j.data)
				}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

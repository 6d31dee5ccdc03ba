// Package distwrite writes a new dist/ folder and puts it in place of the
// old one: the files written or hard-linked a few at a time, the folder
// synced, then swapped in atomically (an exchange on Linux, two renames
// elsewhere) under a lock that keeps a second build out, recovering from a
// swap that was interrupted. It knows nothing of what the files hold.
package distwrite

import (
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"sync"

	"github.com/widgetd/widgetd/internal/regularfile"
)

// Job is one file of a new dist/: new bytes, or a retained file copied
// (hard-linked) from the previous dist/ folder from.
type Job struct {
	Rel  string // slash path inside dist/
	Data []byte
	From string // previous dist/ folder of a retained file; "" for new data
}

// maxWriters bounds the files written at once. Writing a dist/ is mostly
// open/link/close system calls whose latency, not CPU, bounds a big build, so
// a few run at a time.
const maxWriters = 8

// WriteAll creates every folder the jobs need, then writes or links the
// files a few at a time. The first error (in job order) is returned.
func WriteAll(root string, jobs []Job) error {
	dirs := map[string]bool{}
	for _, j := range jobs {
		if d := path.Dir(j.Rel); d != "." && !dirs[d] {
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
				if j.From != "" {
					errs[i] = copyInto(root, j.From, j.Rel)
				} else {
					errs[i] = WriteFile(root, j.Rel, j.Data)
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

// WriteFile writes data to rel (a slash path) under root, creating its
// folder.
func WriteFile(root, rel string, data []byte) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// copyInto copies rel from src into root, hard-linking when it can.
func copyInto(root, src, rel string) error {
	from := filepath.Join(src, filepath.FromSlash(rel))
	to := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if err := os.Link(from, to); err == nil {
		return nil
	}
	// Regular files only (a FIFO left in dist/ must not block); the size and
	// bytes were checked against the manifest just before (mismatch).
	in, err := regularfile.Open(from, math.MaxInt64)
	if err != nil {
		return fmt.Errorf("retain %s: %w", rel, err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("retain %s: %w", rel, err)
	}
	return out.Close()
}

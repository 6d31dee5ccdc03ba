package devserver

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultPollInterval is how often the watcher stats the widget tree. A
// stat walk of a widgets folder (node_modules skipped) costs well under a
// millisecond, so polling this often keeps change-to-rebuild latency low
// without any file-notification dependency.
const DefaultPollInterval = 30 * time.Millisecond

// fileStamp is what the watcher compares between polls.
type fileStamp struct {
	size  int64
	mtime int64
	mode  fs.FileMode
}

// snapshot maps every watched file to its stamp.
type snapshot map[string]fileStamp

// watcher polls a set of roots for added, removed and modified files.
type watcher struct {
	dirs  []string // walked recursively
	files []string // stat'ed individually (may not exist)
}

// skipDir reports whether the walker should not descend into a folder:
// installed packages and hidden folders (.git, editor state, build output).
func skipDir(name string) bool {
	return name == "node_modules" || (strings.HasPrefix(name, ".") && name != "." && name != "..")
}

// scan takes a snapshot of every watched file.
func (w *watcher) scan() snapshot {
	s := snapshot{}
	for _, root := range w.dirs {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // vanished mid-walk or unreadable: the next poll sees it
			}
			if d.IsDir() {
				if p != root && skipDir(d.Name()) {
					return filepath.SkipDir
				}
				s[p+string(filepath.Separator)] = fileStamp{mode: fs.ModeDir}
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") {
				return nil // editor swap and lock files
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			s[p] = fileStamp{size: info.Size(), mtime: info.ModTime().UnixNano(), mode: info.Mode().Type()}
			return nil
		})
	}
	for _, f := range w.files {
		if info, err := os.Stat(f); err == nil {
			s[f] = fileStamp{size: info.Size(), mtime: info.ModTime().UnixNano(), mode: info.Mode().Type()}
		}
	}
	return s
}

// folders are the folders of a snapshot and those of the single watched
// files, for the notifier.
func (w *watcher) folders(s snapshot) []string {
	var dirs []string
	for p, st := range s {
		if st.mode == fs.ModeDir {
			dirs = append(dirs, strings.TrimSuffix(p, string(filepath.Separator)))
		}
	}
	for _, f := range w.files {
		dirs = append(dirs, filepath.Dir(f))
	}
	return dirs
}

// changed reports whether two snapshots differ at all (folders included),
// and returns at most limit of the files that differ, for display, in no
// particular order (map order).
func changed(old, cur snapshot, limit int) (paths []string, any bool) {
	for p, st := range cur {
		if o, ok := old[p]; !ok || o != st {
			any = true
			if len(paths) < limit && st.mode != fs.ModeDir {
				paths = append(paths, p)
			}
		}
	}
	for p, st := range old {
		if _, ok := cur[p]; !ok {
			any = true
			if len(paths) < limit && st.mode != fs.ModeDir {
				paths = append(paths, p)
			}
		}
	}
	return paths, any
}

// watch polls every interval until ctx is done and calls onChange, with a
// few of the changed paths, whenever the tree differs from the last poll.
// Where the kernel reports changes (inotify), a poll also runs as soon as a
// watched folder changes. onChange runs on the watcher's goroutine, so
// changes made while it runs are seen by the next poll and trigger another
// call.
func (w *watcher) watch(ctx context.Context, interval time.Duration, prev snapshot, onChange func([]string)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	n := newNotifier(ctx)
	n.watch(w.folders(prev))
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-n.wakeups():
			settle(ctx, n.wakeups())
		}
		cur := w.scan()
		if paths, any := changed(prev, cur, 5); any {
			prev = cur
			n.watch(w.folders(cur)) // folders are new only when something changed
			onChange(paths)
		}
	}
}

// Settling: one save or delete is often several kernel events (a folder
// removed file by file, a write then a rename), and a scan between them
// builds a tree that never existed (a widget folder half gone reads as a
// broken widget). After a wake-up the watcher waits until the events stop
// for settleQuiet, but never longer than settleMax, so a save is still
// rebuilt within milliseconds.
const (
	settleQuiet = 3 * time.Millisecond
	settleMax   = 25 * time.Millisecond
)

// settle returns once wake has been quiet for settleQuiet, after settleMax,
// or when ctx is done.
func settle(ctx context.Context, wake <-chan struct{}) {
	deadline := time.NewTimer(settleMax)
	defer deadline.Stop()
	quiet := time.NewTimer(settleQuiet)
	defer quiet.Stop()
	for {
		select {
		case <-wake:
			quiet.Reset(settleQuiet)
		case <-quiet.C:
			return
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

package devserver

import (
	"context"
	"os"

	"golang.org/x/sys/unix"
)

// notifyMask is what wakes the watcher: a file written and closed, created,
// deleted, renamed or its mode changed. A write still in progress
// (IN_MODIFY) does not: a scan then could read a half-written file, and the
// close that follows wakes the watcher anyway.
const notifyMask = unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ATTRIB | unix.IN_DELETE_SELF

// notifier wakes the watcher as soon as the kernel reports a change in a
// watched folder (inotify), so a save is rebuilt at once instead of at the
// next poll (on average half a poll period later). The poll stays the
// source of truth: the notifier only makes it come sooner, and a folder
// it could not watch is still polled.
type notifier struct {
	fd      int      // the inotify descriptor (file.Fd would make it blocking)
	file    *os.File // fd, read through the runtime poller
	watched map[string]bool
	wake    chan struct{}
}

// newNotifier starts a notifier that stops with ctx; nil when inotify is
// not available (the watcher then polls only).
func newNotifier(ctx context.Context) *notifier {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil
	}
	// A non-blocking descriptor goes through the runtime poller, so Close
	// ends a pending Read.
	n := &notifier{fd: fd, file: os.NewFile(uintptr(fd), "inotify"), watched: map[string]bool{}, wake: make(chan struct{}, 1)}
	go func() {
		<-ctx.Done()
		n.file.Close()
	}()
	go n.read()
	return n
}

// read turns every batch of events into one wake-up.
func (n *notifier) read() {
	buf := make([]byte, 64<<10)
	for {
		if _, err := n.file.Read(buf); err != nil {
			return
		}
		select {
		case n.wake <- struct{}{}:
		default:
		}
	}
}

// watch adds the folders not watched yet. It runs on the watcher's goroutine
// only, after each scan, so new folders are watched from then on.
func (n *notifier) watch(dirs []string) {
	if n == nil {
		return
	}
	for _, d := range dirs {
		if n.watched[d] {
			continue
		}
		n.watched[d] = true // tried once; a folder inotify refuses is polled
		_, _ = unix.InotifyAddWatch(n.fd, d, notifyMask)
	}
}

// wakeups is the channel that receives a value after changes (nil for a
// nil notifier, which never receives).
func (n *notifier) wakeups() <-chan struct{} {
	if n == nil {
		return nil
	}
	return n.wake
}

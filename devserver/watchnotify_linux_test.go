package devserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestNotifierWakesWatcher polls once an hour, so only inotify can report
// the changes in time: a file written, a folder created and a file written
// in that new folder, each seen within seconds.
func TestNotifierWakesWatcher(t *testing.T) {
	root := t.TempDir()
	w := &watcher{dirs: []string{root}}
	ctx, cancel := context.WithCancel(context.Background())
	seen := make(chan []string, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.watch(ctx, time.Hour, w.scan(), func(p []string) { seen <- p })
	}()
	defer func() { cancel(); <-done }()
	time.Sleep(100 * time.Millisecond) // the watches are added when watch starts
	steps := []struct {
		name string
		do   func() error
	}{
		{"write a file", func() error { return os.WriteFile(filepath.Join(root, "a.ts"), []byte("1"), 0o644) }},
		{"create a folder", func() error { return os.Mkdir(filepath.Join(root, "sub"), 0o755) }},
		{"write in the new folder", func() error { return os.WriteFile(filepath.Join(root, "sub", "b.ts"), []byte("2"), 0o644) }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-seen:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no change seen in 10 s with an hourly poll", st.name)
		}
	}
}

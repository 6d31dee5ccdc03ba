package specialfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMakers makes each kind on a real file system, over a regular file
// already there, and checks the kind os.Stat sees.
func TestMakers(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		make Maker
		want fs.FileMode
	}{
		{"fifo", FIFO, fs.ModeNamedPipe},
		{"socket", Socket, fs.ModeSocket},
		{"device link", SymlinkTo("/dev/zero"), fs.ModeCharDevice},
		{"folder", Folder, fs.ModeDir},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte("regular"), 0o644); err != nil {
			t.Fatal(err)
		}
		tc.make(t, p)
		fi, err := os.Stat(p)
		if err != nil || fi.Mode()&tc.want == 0 {
			t.Errorf("%s: mode %v (%v), want %v", tc.name, fi.Mode(), err, tc.want)
		}
	}
}

// TestWithin returns the read's error at once, and fails the test it is
// given when the read blocks past the timeout.
func TestWithin(t *testing.T) {
	want := errors.New("refused")
	if err := Within(t, time.Minute, "read", func() error { return want }); err != want {
		t.Errorf("Within returned %v, want %v", err, want)
	}
	inner := &testing.T{}
	block := make(chan struct{})
	defer close(block)
	done := make(chan struct{})
	go func() {
		defer close(done)
		Within(inner, 10*time.Millisecond, "blocking read", func() error { <-block; return nil })
	}()
	<-done
	if !inner.Failed() {
		t.Error("a read that blocked did not fail the test")
	}
}

package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// Writers and a reader run at once (go test -race catches a missing lock);
// every write arrives whole.
func TestConcurrentWritesAndReads(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("line\n"))
				_ = b.String()
				_ = b.Cap()
			}
		}()
	}
	wg.Wait()
	if got := strings.Count(b.String(), "line\n"); got != 400 {
		t.Fatalf("got %d lines, want 400", got)
	}
	if b.Cap() < len(b.String()) {
		t.Fatalf("Cap %d is less than the %d bytes held", b.Cap(), len(b.String()))
	}
}

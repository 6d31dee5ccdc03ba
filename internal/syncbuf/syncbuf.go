// Package syncbuf provides a bytes.Buffer that one goroutine may write while
// another reads it: the log and terminal sink of tests that run a server in
// the background and inspect what it printed, and cmd/widgetd/internal/mcplist's
// record of the answers its HTTP client reads.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer guarded by a mutex. The zero value is an empty
// buffer ready to use; it must not be copied after first use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p to the buffer.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns a copy of everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Cap is the capacity of the underlying buffer: the memory it holds, for
// tests that check a server does not print without bound.
func (b *Buffer) Cap() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Cap()
}

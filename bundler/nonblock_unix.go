//go:build unix

package bundler

import "syscall"

// nonBlocking opens a file without waiting: a FIFO swapped in after the
// check then fails the regular-file check instead of blocking the open.
const nonBlocking = syscall.O_NONBLOCK

//go:build unix

package regularfile

import "syscall"

// openNonBlocking makes opening a named pipe return at once instead of
// waiting for a writer; it changes nothing for a regular file.
const openNonBlocking = syscall.O_NONBLOCK

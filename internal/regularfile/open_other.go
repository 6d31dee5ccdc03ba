//go:build !unix

package regularfile

// openNonBlocking is 0 where there are no named pipes in the file system.
const openNonBlocking = 0

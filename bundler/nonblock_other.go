//go:build !unix

package bundler

// nonBlocking is 0 where the platform has no FIFOs to block on.
const nonBlocking = 0

//go:build !race

package fastserve

// raceEnabled is set when the race detector, which allocates, is on.
const raceEnabled = false

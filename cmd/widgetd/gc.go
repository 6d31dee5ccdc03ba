package main

import (
	"os"
	"runtime/debug"
)

// buildMemoryLimit is the heap size at which a one-shot build collects
// garbage when the collector is otherwise off (tuneGCForOneShot).
const buildMemoryLimit = 1 << 30

// tuneGCForOneShot (called by main, so tests that run commands in process
// keep the default) turns the garbage collector's pacing off for a command
// that allocates, finishes and exits (widgetd build): most of what it
// allocates (esbuild's syntax trees, bundles) lives until the end anyway, so
// collecting early is wasted CPU, about a fifth of a cold build of 50
// widgets. A soft memory limit still collects before the heap passes 1 GiB.
// It does nothing when the user set GOGC or GOMEMLIMIT (esbuild's CLI does
// the same).
func tuneGCForOneShot() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(buildMemoryLimit)
	debug.SetGCPercent(-1)
}

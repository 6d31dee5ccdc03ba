// Package deptest holds the layering test of the module, in the style of
// Tailscale's tstest/deptest: the top-level internal/ keeps only leaves, so
// no package there, nor its tests, imports a package of this module outside
// internal/. A feature that needs the module's upper packages lives under
// the package that alone uses it (bundler/internal/..., cmd/widgetd/internal/...)
// or in its own top-level package when it has users of its own. The test
// runs go list, so it sees the imports the go tool sees, build tags included.
// It has no code of its own.
package deptest

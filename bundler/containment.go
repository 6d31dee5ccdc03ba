package bundler

import (
	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/contain"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// Every file a build reads goes through bundler/internal/contain (the
// folders a build may read from, the esbuild plugin that checks esbuild's
// own loads, the bounded readers). These are the build's names for it, so
// the files that read keep reading as they did.

// containment is the build's contained reader.
type containment = contain.Reader

// limitError is a refusal by one of the build's limits, with its code.
type limitError = contain.Error

// maxConfigSize is the largest widget.json, widgetd.json or .env read.
const maxConfigSize = contain.MaxConfigSize

// resolverConfigs are the files esbuild consults in a folder while
// resolving and compiling the files below it.
var resolverConfigs = contain.ResolverConfigs

// containedPlugins is the plugin list of every esbuild run of a build (the
// main one, a file bundled on its own, Tailwind's module graph pass): the
// containment first, so it checks every file esbuild is about to load
// before any other plugin or esbuild itself reads it.
func (b *Builder) containedPlugins(plugins ...api.Plugin) []api.Plugin {
	return append([]api.Plugin{b.contain.Plugin()}, plugins...)
}

// readBounded reads a file the build consults but does not bundle
// (contain.ReadBounded).
func readBounded(p string) ([]byte, error) { return contain.ReadBounded(p) }

// readRegular reads the regular file p, at most limit bytes
// (contain.ReadRegular).
func readRegular(spec, p string, limit int64) ([]byte, error) {
	return contain.ReadRegular(spec, p, limit)
}

// readConfigFile reads widget.json or widgetd.json (contain.ReadConfigFile).
func readConfigFile(file string) ([]byte, error) { return contain.ReadConfigFile(file) }

// within reports whether p is base or below it (both clean, absolute).
func within(base, p string) bool { return contain.Within(base, p) }

// isLimitError reports whether err is a refusal by the build's limits.
func isLimitError(err error) bool { return contain.IsLimitError(err) }

// limitMessage is err as an esbuild message at the import.
func limitMessage(err error) api.Message { return contain.Message(err) }

// loadError is an OnLoad result that fails with err at the import.
func loadError(err error) api.OnLoadResult { return contain.LoadError(err) }

// limitDiag is a diagnostic for a limit error at file.
func limitDiag(file string, line, col int, err error) *diag.Error {
	return contain.Diag(file, line, col, err)
}

// codeOf is the limit code of err, or "".
func codeOf(err error) string { return contain.CodeOf(err) }

// limitCode returns name when it is a limit code, else "".
func limitCode(name string) string { return contain.LimitCode(name) }

// formatBytes writes n as B, KiB or MiB.
func formatBytes(n int64) string { return regularfile.FormatBytes(n) }

// unwrapPathErr is the cause inside a *fs.PathError, or err.
func unwrapPathErr(err error) error { return contain.PathErrCause(err) }

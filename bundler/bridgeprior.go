package bundler

// Bundling once when each widget's bridge level is known from the previous
// build (docs/bridge.md, "Bridge levels").

import (
	"encoding/json"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler/internal/config"
	"github.com/widgetd/widgetd/diag"
)

// previousLevels are the lighter bridge levels (app, core) the manifest in
// the output folder records for the current widgets, so the first bundle
// can be made at them and a widget whose level has not changed is bundled
// once. It is nil (every widget bundled with the full bridge first, as
// without a previous build) when there is none to trust: no manifest, a
// damaged one or one of another version, no widget at a lighter level, or
// a Builder that keeps an esbuild context between bundles or builds for
// `widgetd dev` (always the full bridge).
func (b *Builder) previousLevels() map[string]bridgeLevel {
	if b.esb != nil || b.bundles > 0 || b.assembled || b.devOrigin != "" || b.reactRefresh {
		return nil
	}
	data, err := readBounded(filepath.Join(b.outDir, assets.ManifestFile))
	if err != nil {
		return nil
	}
	var m assets.Manifest
	if json.Unmarshal(data, &m) != nil || m.Version != assets.ManifestVersion || m.Generator != "widgetd "+Version {
		return nil
	}
	var levels map[string]bridgeLevel
	for _, mw := range m.Widgets {
		level := bridgeLevel(mw.Bridge)
		w := b.widgetByName(mw.Name)
		if w == nil || (level != bridgeApp && level != bridgeCore) || b.bridgeMode(w) == config.BridgeFull {
			continue
		}
		if levels == nil {
			levels = map[string]bridgeLevel{}
		}
		levels[mw.Name] = level
	}
	return levels
}

// bundleAt makes the first bundle: with the widgets in levels at those
// bridge levels (and the rest with the full bridge) in one esbuild run, or,
// with no levels, as bundle does.
func (b *Builder) bundleAt(levels map[string]bridgeLevel) (*bundleResult, []diag.Diagnostic, error) {
	b.esbuildRuns++
	if levels == nil {
		return b.bundle()
	}
	res, diags, err := b.collect(api.Build(b.esbuildOptionsFor(levels)))
	b.bundles++
	b.seen = nil
	return res, diags, err
}

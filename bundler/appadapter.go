package bundler

import (
	"fmt"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/bridge"
)

// extAppsAppModules matches the ext-apps modules that define the App class:
// the package entry, its with-deps bundle and the React entries (which bundle
// App too).
const extAppsAppModules = `[\\/]@modelcontextprotocol[\\/]ext-apps[\\/]dist[\\/]src[\\/](app|app-with-deps|react[\\/]index|react[\\/]react-with-deps)\.js$`

// appAdapterHook loads those modules with an import of the bridge's App
// adapter in front, so the adapter runs before the App connects, and only
// widgets that use the App class carry it.
func (b *Builder) appAdapterHook(pb api.PluginBuild) {
	pb.OnLoad(api.OnLoadOptions{Filter: extAppsAppModules, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		data, err := b.contain.readFile("", a.Path, "")
		if isLimitError(err) {
			return loadError(err), nil
		}
		if err != nil {
			return api.OnLoadResult{}, fmt.Errorf("read %s: %w", a.Path, err)
		}
		src := `import "` + bridge.AppAdapterModuleName + `";` + string(data)
		return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS, ResolveDir: filepath.Dir(a.Path)}, nil
	})
}

package contain

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/diag"
)

// TestResolverConfigs: a FIFO where esbuild's resolver would read a
// package.json, tsconfig.json or jsconfig.json (in the folder, above it, in
// a bare import's package, or a file a tsconfig "extends") refuses the
// resolve before esbuild opens it.
func TestResolverConfigs(t *testing.T) {
	for _, tc := range []struct {
		name string
		fifo string // below top
		dir  string // resolved from, below top
		spec string
		want string // the file named, "" when allowed
	}{
		{"none", "", "ws/proj/widgets/w", "./a", ""},
		{"in the folder", "ws/proj/widgets/w/package.json", "ws/proj/widgets/w", "./a", "package.json"},
		{"above", "ws/proj/tsconfig.json", "ws/proj/widgets/w", "./a", "tsconfig.json"},
		{"a bare import's package", "ws/proj/node_modules/pkg/package.json", "ws/proj/widgets/w", "pkg/sub", "package.json"},
		{"another package's is not read", "ws/proj/node_modules/other/package.json", "ws/proj/widgets/w", "pkg", ""},
		{"extended by a tsconfig", "ws/proj/base.json", "ws/proj/widgets/w", "./a", "base.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			tr.write(t, map[string]string{"ws/proj/widgets/tsconfig.json": `{"extends": "../base.json", /* JSONC */}`})
			if tc.fifo != "" {
				tr.fifo(t, tc.fifo)
			}
			r := tr.reader(t, nil, 0)
			err := r.checkResolverConfigs(tr.path(tc.dir), tc.spec)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if CodeOf(err) != diag.CodeNotRegularFile || !strings.Contains(err.Error(), tc.want+`" is a named pipe (FIFO)`) {
				t.Fatalf("got %v, want %s refused as a FIFO", err, tc.want)
			}
		})
	}
}

// TestPluginRefusesAtTheImport runs esbuild with the plugin: an import of a
// file outside the project fails at the import's line and column, the
// limit's code riding as the plugin name, and nothing is bundled.
func TestPluginRefusesAtTheImport(t *testing.T) {
	tr := newTree(t)
	tr.write(t, map[string]string{"ws/proj/widgets/w/index.ts": "import a from \"a/a.js\";\nimport key from \"../../../../secret/key.txt\";\nconsole.log(a, key);\n"})
	r := tr.reader(t, nil, 0)
	res := api.Build(api.BuildOptions{
		EntryPoints:   []string{tr.path("ws/proj/widgets/w/index.ts")},
		Bundle:        true,
		Write:         false,
		Loader:        map[string]api.Loader{".txt": api.LoaderText, ".js": api.LoaderText},
		AbsWorkingDir: tr.root,
		Plugins:       []api.Plugin{r.Plugin()},
		LogLevel:      api.LogLevelSilent,
	})
	if len(res.Errors) != 1 {
		t.Fatalf("errors: %+v, want one", res.Errors)
	}
	e := res.Errors[0]
	if e.PluginName != diag.CodeOutsideProject || e.Location == nil || e.Location.Line != 2 || e.Location.Column != 16 || !strings.Contains(e.Text, "outside the project") {
		t.Fatalf("error %q (plugin %q) at %+v, want outside-project at 2:16", e.Text, e.PluginName, e.Location)
	}
	if len(res.OutputFiles) != 0 {
		t.Fatalf("a refused build wrote %d files", len(res.OutputFiles))
	}
}

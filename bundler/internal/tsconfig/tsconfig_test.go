package tsconfig

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

func TestStripJSONC(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": 1, // c` + "\n}":         `{"a": 1 ` + "\n}",
		`{/* x */"a": "/* not */",}`:    `{"a": "/* not */"}`,
		`{"a": "q\"//", "b": [1, 2, ]}`: `{"a": "q\"//", "b": [1, 2 ]}`,
		`{"a": "unterminated`:           `{"a": "unterminated`,
		`{"a": 1} /* unterminated`:      `{"a": 1} `,
	} {
		if got := string(StripJSONC([]byte(in))); got != want {
			t.Errorf("StripJSONC(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNearestJSX reads real config files in a temporary tree: the nearest
// config wins (tsconfig before jsconfig in one folder), relative "extends"
// fills what a config leaves unset, and jsx "preserve" is Solid's only in a
// package that depends on solid-js.
func TestNearestJSX(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		dir   string
		want  JSX
	}{
		{"no config", map[string]string{"src/a.tsx": ""}, "src", JSX{}},
		{"react", map[string]string{"tsconfig.json": `{"compilerOptions": {"jsx": "react-jsx", "jsxImportSource": "react"}}`}, ".", JSX{}},
		{"solid source", map[string]string{"tsconfig.json": `{"compilerOptions": {"jsxImportSource": "solid-js"}}`}, ".", JSX{Solid: true, OtherRuntime: true}},
		{"preact", map[string]string{"jsconfig.json": `{"compilerOptions": {"jsxImportSource": "preact"}}`}, ".", JSX{OtherRuntime: true}},
		{"preserve in a solid package", map[string]string{
			"tsconfig.json": `{"compilerOptions": {"jsx": "Preserve"}}`,
			"package.json":  `{"devDependencies": {"solid-js": "1"}}`,
		}, ".", JSX{Solid: true}},
		{"preserve elsewhere", map[string]string{
			"tsconfig.json": `{"compilerOptions": {"jsx": "preserve"}}`,
			"package.json":  `{"dependencies": {"react": "19"}}`,
		}, ".", JSX{}},
		{"nearest wins", map[string]string{
			"tsconfig.json":     `{"compilerOptions": {"jsxImportSource": "solid-js"}}`,
			"app/tsconfig.json": `{"compilerOptions": {"jsxImportSource": "react"}}`,
		}, "app", JSX{}},
		{"tsconfig before jsconfig", map[string]string{
			"tsconfig.json": `{"compilerOptions": {"jsxImportSource": "react"}}`,
			"jsconfig.json": `{"compilerOptions": {"jsxImportSource": "preact"}}`,
		}, ".", JSX{}},
		{"extends fills unset, with comments", map[string]string{
			"base.json":         `{"compilerOptions": {"jsxImportSource": "preact",},}`,
			"app/tsconfig.json": "// app\n{\"extends\": \"../base\", \"compilerOptions\": {}}",
		}, "app", JSX{OtherRuntime: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			testfiles.Write(t, root, tc.files)
			if got := NearestJSX(filepath.Join(root, tc.dir), os.ReadFile); got != tc.want {
				t.Errorf("NearestJSX = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestNearestReadsOnlyThroughRead: a config the reader refuses (as the
// build's bounded reader refuses a FIFO) gives no options, and nothing is
// read but through read.
func TestNearestReadsOnlyThroughRead(t *testing.T) {
	root := t.TempDir()
	testfiles.Write(t, root, map[string]string{"tsconfig.json": `{"compilerOptions": {"jsxImportSource": "solid-js"}}`})
	var asked []string
	refuse := func(p string) ([]byte, error) {
		asked = append(asked, p)
		return nil, errors.New("refused")
	}
	o, ok := Nearest(root, refuse)
	if !ok || o.Dir != root || o.ImportSource != "" || o.JSX != "" {
		t.Errorf("Nearest = %+v, %v; want the folder found and no options read", o, ok)
	}
	if want := []string{filepath.Join(root, "tsconfig.json")}; !reflect.DeepEqual(asked, want) {
		t.Errorf("read asked for %v, want %v", asked, want)
	}
}

func TestExtends(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`{"extends": "./base.json"}`, []string{"./base.json"}},
		{`{"extends": ["@tsconfig/strictest", "./b"], /* c */}`, []string{"@tsconfig/strictest", "./b"}},
		{`{"compilerOptions": {}}`, nil},
		{`{"extends": 3}`, nil},
		{`not json`, nil},
	} {
		if got := Extends([]byte(tc.in)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Extends(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExtendsCandidates(t *testing.T) {
	for _, tc := range []struct {
		dir, parent string
		want        []string
	}{
		{"/p/app", "./base", []string{"/p/app/base", "/p/app/base.json", "/p/app/base/tsconfig.json"}},
		{"/p/app", "../base.json", []string{"/p/base.json"}},
		{"/p/app", "/etc/x.json", []string{"/etc/x.json"}},
		{"/p", "@t/s", []string{
			"/p/node_modules/@t/s", "/p/node_modules/@t/s.json", "/p/node_modules/@t/s/tsconfig.json",
			"/node_modules/@t/s", "/node_modules/@t/s.json", "/node_modules/@t/s/tsconfig.json",
		}},
	} {
		var want []string
		for _, w := range tc.want {
			want = append(want, filepath.FromSlash(w))
		}
		if got := ExtendsCandidates(filepath.FromSlash(tc.dir), tc.parent); !reflect.DeepEqual(got, want) {
			t.Errorf("ExtendsCandidates(%q, %q) = %q, want %q", tc.dir, tc.parent, got, want)
		}
	}
}

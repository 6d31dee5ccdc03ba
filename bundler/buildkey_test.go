package bundler

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/widgetd/widgetd/diag"
)

// keyTestBuilder returns a Builder for a project with one empty widgets
// folder; buildKey works before discover.
func keyTestBuilder(t *testing.T, opts Options) *Builder {
	t.Helper()
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func mustKey(t *testing.T, b *Builder) string {
	t.Helper()
	key, err := b.buildKey()
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func keyTestRoot(t *testing.T) string {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "widgets"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestBuildKeyCoversOptions changes each field of Options in turn and
// asserts that the up-to-date key changes: an option that decides the
// output but not the key would make a changed build claim "up to date".
// A new Options field fails here until it has a case (and reaches
// settings, which buildKey hashes whole).
func TestBuildKeyCoversOptions(t *testing.T) {
	root := keyTestRoot(t)
	base := Options{Root: root, CacheDir: t.TempDir()}
	changed := map[string]func(*Options){
		"Root":            func(o *Options) { o.Root = keyTestRoot(t) },
		"WidgetsDir":      func(o *Options) { o.WidgetsDir = "src" },
		"OutDir":          func(o *Options) { o.OutDir = "out" },
		"PublicURL":       func(o *Options) { o.PublicURL = "https://cdn.example.com/w" },
		"Targets":         func(o *Options) { o.Targets = []string{"es2022"} },
		"Retain":          func(o *Options) { o.Retain = 2 },
		"NoCompress":      func(o *Options) { o.NoCompress = true },
		"PrecompressHTML": func(o *Options) { o.PrecompressHTML = true },
		"CacheDir":        func(o *Options) { o.CacheDir = t.TempDir() },
		"NoCache":         func(o *Options) { o.NoCache = true },
		"DevOrigin":       func(o *Options) { o.DevOrigin = "http://localhost:5173" },
		"SourceMaps":      func(o *Options) { o.SourceMaps = true },
		"Strict":          func(o *Options) { o.Strict = true },
		"ReactRefresh":    func(o *Options) { o.ReactRefresh = true },
		"ShippedBridge":   func(o *Options) { o.ShippedBridge = true },
		"Skip":            func(o *Options) { o.Skip = []string{"w"} },
		"Audit": func(o *Options) {
			o.Audit = func(context.Context, *Builder, *Result) []diag.Diagnostic { return nil }
		},
	}
	// notOutput are the options that do not decide the output.
	notOutput := map[string]bool{"Progress": true}
	want := mustKey(t, keyTestBuilder(t, base))
	for _, f := range reflect.VisibleFields(reflect.TypeOf(Options{})) {
		if notOutput[f.Name] {
			continue
		}
		change, ok := changed[f.Name]
		if !ok {
			t.Errorf("Options.%s has no case in this test: add one, and resolve the option into settings so the up-to-date key covers it", f.Name)
			continue
		}
		opts := base
		change(&opts)
		if reflect.DeepEqual(opts, base) {
			t.Fatalf("Options.%s: the case does not change the option", f.Name)
		}
		if got := mustKey(t, keyTestBuilder(t, opts)); got == want {
			t.Errorf("Options.%s changed, the up-to-date key did not", f.Name)
		}
	}
}

// TestBuildKeyCoversSettings changes each resolved setting in turn and
// asserts that the key changes, so buildKey can never go back to a hand
// list that misses one.
func TestBuildKeyCoversSettings(t *testing.T) {
	b := keyTestBuilder(t, Options{Root: keyTestRoot(t), CacheDir: t.TempDir()})
	want := mustKey(t, b)
	orig := b.settings
	v := reflect.ValueOf(&b.settings).Elem()
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		// Unexported fields: reach them through their address (test only).
		f := reflect.NewAt(v.Field(i).Type(), unsafe.Pointer(v.Field(i).UnsafeAddr())).Elem()
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Int, reflect.Int64:
			f.SetInt(f.Int() + 1)
		case reflect.Uint8:
			f.SetUint(f.Uint() + 1)
		case reflect.Slice:
			f.Set(reflect.Append(f, reflect.Zero(f.Type().Elem())))
		default:
			t.Fatalf("settings.%s: teach this test to change a %s", name, f.Type())
		}
		if got := mustKey(t, b); got == want {
			t.Errorf("settings.%s changed, the up-to-date key did not", name)
		}
		b.settings = orig
	}
}

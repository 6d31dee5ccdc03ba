package widgettest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/diag"
)

// startDevSkippingBroken starts the dev server on the project. When the
// build fails, each widget is built alone: the ones that fail become a
// failed "build" case each (their diagnostics as its failures) and the dev
// server is started again without them, so the widgets that build are
// still rendered. When no widget builds alone, or every one does (the
// failure is the project's), the build error is returned as is.
func startDevSkippingBroken(ctx context.Context, opts Options) (*devserver.Server, func(), []Case, error) {
	srv, stop, err := startDev(ctx, opts, nil)
	var be *BuildError
	if !errors.As(err, &be) {
		return srv, stop, nil, err
	}
	broken, ok := brokenWidgets(ctx, opts)
	if !ok {
		return nil, nil, nil, err
	}
	names := make([]string, 0, len(broken))
	for _, c := range broken {
		names = append(names, c.Widget)
	}
	srv, stop, err = startDev(ctx, opts, names)
	if err != nil {
		return nil, nil, nil, err
	}
	return srv, stop, broken, nil
}

// brokenWidgets builds each widget folder of the project alone (in memory)
// and returns a failed case for each that does not build, by folder name;
// ok is false unless some widgets build and some do not.
func brokenWidgets(ctx context.Context, opts Options) (broken []Case, ok bool) {
	folders, err := widgetFolders(opts)
	if err != nil || len(folders) < 2 {
		return nil, false
	}
	for _, name := range folders {
		if len(opts.Widgets) > 0 && !slices.Contains(opts.Widgets, name) {
			continue
		}
		others := slices.DeleteFunc(slices.Clone(folders), func(f string) bool { return f == name })
		diags, err := buildAlone(ctx, opts, others)
		if err != nil {
			return nil, false
		}
		if len(diags) > 0 {
			broken = append(broken, Case{Widget: name, Fixture: "build", Host: "all", Failures: diags})
		}
	}
	return broken, len(broken) > 0 && len(broken) < len(folders)
}

// buildAlone assembles the project without the widgets in skip and returns
// the diagnostics of a failed build (none: it built); an error means the
// build could not be tried.
func buildAlone(ctx context.Context, opts Options, skip []string) ([]string, error) {
	b, err := bundler.New(bundler.Options{Root: opts.Root, WidgetsDir: opts.WidgetsDir, Skip: skip, NoCompress: true, NoCache: true})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	_, err = b.Assemble(ctx)
	if err == nil {
		return nil, nil
	}
	diags := diag.FromError(err)
	if len(diags) == 0 {
		return []string{err.Error()}, nil
	}
	var out []string
	for _, d := range diags {
		if !d.Warning {
			out = append(out, d.String())
		}
	}
	return out, nil
}

// widgetFolders lists the folders of the project's widgets folder that
// hold a widget.json.
func widgetFolders(opts Options) ([]string, error) {
	b, err := bundler.New(bundler.Options{Root: opts.Root, WidgetsDir: opts.WidgetsDir})
	if err != nil {
		return nil, err
	}
	dir := b.WidgetsDir()
	b.Close()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), layout.WidgetConfigFile)); err == nil {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

package bundler

import "github.com/widgetd/widgetd/bundler/internal/config"

// widget.json and widgetd.json are read and validated by
// bundler/internal/config; these are the build's names for what it reads.

// projectConfig is widgetd.json as read and validated.
type projectConfig = config.Project

// widget is one discovered, validated widget, with what the build adds.
type widget struct {
	config.Widget
	// html is the parsed HTML entry, or the default shell for a script entry.
	html *htmlEntry
}

// loadProjectConfig reads widgetd.json in dir, its "targets" checked as
// esbuild targets.
func loadProjectConfig(dir string) (projectConfig, error) {
	return config.LoadProject(dir, func(targets []string) error {
		_, _, err := parseTargets(targets)
		return err
	})
}

// loadWidget reads and validates dir/widget.json (display is the folder as
// shown in messages).
func loadWidget(dir, display, publicURL string) (*widget, error) {
	w, err := config.LoadWidget(dir, display, publicURL)
	if err != nil {
		return nil, err
	}
	return &widget{Widget: *w}, nil
}

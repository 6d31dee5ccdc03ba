// Package cachedir names widgetd's default cache folder, shared by the
// bundler (its default) and the CLI (its --cache-dir help).
package cachedir

import (
	"os"
	"path/filepath"
)

// Default is widgetd's cache folder when none is given: widgetd in the user
// cache folder (compressed files by content hash under compress-2/, records
// of finished builds under builds/, the fonts `widgetd test` pins under
// fonts-<hash>/); "" when the system has none.
func Default() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "widgetd")
}

package devserver

import (
	"fmt"
	"strings"
)

// schemeAdvice explains a blocked data: or blob: URL (Chromium reports them
// as the bare words "data" and "blob") and says what does work: a file
// loaded from the public URL instead of an inlined data: URL, a worker
// script file instead of a blob: worker. ok is false for other URLs.
func schemeAdvice(dir, blocked string) (msg string, ok bool) {
	scheme := strings.ToLower(strings.TrimSuffix(blocked, ":"))
	if i := strings.IndexByte(scheme, ':'); i >= 0 {
		scheme = scheme[:i]
	}
	base := strings.TrimSuffix(strings.TrimSuffix(dir, "-elem"), "-attr")
	switch scheme {
	case "data":
		return fmt.Sprintf("%s blocked a data: URL; the spec CSP has no widget.json field that allows data: for %s. "+
			"An inline build turns imported files (fonts, scripts) into data: URLs; build with a public URL (widgetd dev --public-url URL, widgetd build --public-url https://…) so they load as files", dir, dir), true
	case "blob":
		if base == "worker-src" || base == "script-src" {
			return fmt.Sprintf("%s blocked a blob: URL (a worker or script made from a Blob); the spec CSP has no widget.json field that allows blob:. "+
				"Start the worker from a file (new Worker(new URL(\"./worker.ts\", import.meta.url), {type: \"module\"}) in a widget built with --public-url), or use the library's no-worker mode", dir), true
		}
		return fmt.Sprintf("%s blocked a blob: URL; the spec CSP has no widget.json field that allows blob: for %s (use a file import instead)", dir, dir), true
	case "filesystem":
		return fmt.Sprintf("%s blocked a filesystem: URL; no widget.json field allows it (use a file import instead)", dir), true
	}
	return "", false
}

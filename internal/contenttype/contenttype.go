// Package contenttype names the Content-Type of a dist/ file by its
// extension. The bundler records it in the manifest; the dev server sends it.
package contenttype

import (
	"path"
	"strings"
)

// byExt maps file extensions to the Content-Type dist/ files are served
// with. A fixed table keeps builds identical on every machine (the mime
// package reads system files).
var byExt = map[string]string{
	".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8", ".json": "application/json", ".map": "application/json",
	".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".avif": "image/avif", ".ico": "image/x-icon", ".bmp": "image/bmp",
	".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".otf": "font/otf", ".eot": "application/vnd.ms-fontobject",
	".mp3": "audio/mpeg", ".mp4": "video/mp4", ".webm": "video/webm", ".ogg": "audio/ogg", ".wav": "audio/wav",
	".wasm": "application/wasm", ".txt": "text/plain; charset=utf-8",
}

// For returns the Content-Type for a dist/ file name
// ("application/octet-stream" for an extension it does not know).
func For(name string) string {
	if ct, ok := byExt[strings.ToLower(path.Ext(name))]; ok {
		return ct
	}
	return "application/octet-stream"
}

package bundler

import (
	"strings"
)

// legalSuffix is what esbuild appends to an output's path for the file of
// its licence comments (LegalCommentsExternal).
const legalSuffix = ".LEGAL.txt"

// widgetLegal returns the dist/ path and text of the licence comments esbuild
// took out of a widget's JS and CSS bundles, one file per widget named by
// its content, or "" when the bundles have none (or keep them inline).
func widgetLegal(name string, bundle *bundleResult) (string, []byte) {
	var text []byte
	for _, p := range []string{bundle.js[name], bundle.css[name]} {
		if f, ok := bundle.files[p+legalSuffix]; ok && p != "" && len(f.Contents) > 0 {
			text = append(text, f.Contents...)
		}
	}
	if len(text) == 0 {
		return "", nil
	}
	return assetsDir + "/" + name + "-" + strings.ToUpper(sha256Hex(text)[:8]) + ".licenses.txt", text
}

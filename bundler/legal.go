package bundler

import (
	"strings"

	"github.com/widgetd/widgetd/bundler/strictjson"
)

// Values of widgetd.json's "legalComments".
const (
	// legalCommentsFile moves the licence comments (/*! … */, @license,
	// @preserve) of a widget's bundle into a file of their own in dist/,
	// beside the widget (the default): hosts receive inline widgets as
	// JSON text, so every byte of the document is paid on every render.
	legalCommentsFile = "file"
	// legalCommentsInline keeps them at the end of the bundle, as before.
	legalCommentsInline = "inline"
)

// legalSuffix is what esbuild appends to an output's path for the file of
// its licence comments (LegalCommentsExternal).
const legalSuffix = ".LEGAL.txt"

// checkLegalComments validates widgetd.json's "legalComments".
func checkLegalComments(doc *strictjson.Doc, mode string) error {
	if !doc.Has("legalComments") || mode == legalCommentsFile || mode == legalCommentsInline {
		return nil
	}
	return doc.ErrPath("legalComments", `"legalComments" is %q; use "file" (licence comments in a file beside the widget in dist/, the default) or "inline" (at the end of the widget's script and stylesheet)`, mode)
}

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

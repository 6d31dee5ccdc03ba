package config

import "github.com/widgetd/widgetd/bundler/strictjson"

// Values of the "bridge" field of widget.json and widgetd.json (docs/bridge.md,
// "Bridge levels").
const (
	// BridgeAuto injects the least bridge the widget's code needs (the default).
	BridgeAuto = "auto"
	// BridgeFull injects the full bridge into the widget whatever it uses.
	BridgeFull = "full"
)

// Values of widgetd.json's "legalComments".
const (
	// LegalCommentsFile moves the licence comments (/*! … */, @license,
	// @preserve) of a widget's bundle into a file of their own in dist/,
	// beside the widget (the default): hosts receive inline widgets as
	// JSON text, so every byte of the document is paid on every render.
	LegalCommentsFile = "file"
	// LegalCommentsInline keeps them at the end of the bundle.
	LegalCommentsInline = "inline"
)

// checkBridgeMode validates the "bridge" field of a widget.json or widgetd.json.
func checkBridgeMode(doc *strictjson.Doc, mode string) error {
	if !doc.Has("bridge") || mode == BridgeAuto || mode == BridgeFull {
		return nil
	}
	return doc.ErrPath("bridge", `"bridge" is %q; use "auto" (inject only the bridge the widget's code uses, the default) or "full" (always the whole bridge)`, mode)
}

// checkLegalComments validates widgetd.json's "legalComments".
func checkLegalComments(doc *strictjson.Doc, mode string) error {
	if !doc.Has("legalComments") || mode == LegalCommentsFile || mode == LegalCommentsInline {
		return nil
	}
	return doc.ErrPath("legalComments", `"legalComments" is %q; use "file" (licence comments in a file beside the widget in dist/, the default) or "inline" (at the end of the widget's script and stylesheet)`, mode)
}

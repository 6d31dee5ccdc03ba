// Package namespace names the esbuild namespaces the bundler gives its
// virtual modules, where a reader of the build's metafile (check) must
// recognise them.
package namespace

// Entry is the namespace of each widget's virtual entry module; the
// metafile names a widget's entry point Entry + ":" + the widget's name.
const Entry = "widgetd-entry"

// Package docs holds the tests that keep the README's and docs/'s
// copyable snippets true: each snippet marked <!-- docs-snippet: NAME --> is
// extracted and run through the real code (the widget.json loader, the
// fixture decoder, the Go compiler and the tool audit). Every ```ts and
// ```tsx block of the README and docs/ is bundled as a widget entry by
// widgetd's bundler and type-checked by tsc against widgetd.d.ts, and the Go
// blocks must check the errors of fs.Sub, assets.Load and AttachWidget. It
// has no code of its own. It lives beside the pages it tests, not in
// internal/: its tests import bundler, devserver, typecheck and typesgen,
// and the top-level internal/ holds leaves only.
package docs

// Package docstest holds the tests that keep the README's and docs/'s
// copyable snippets true: each snippet marked <!-- docs-snippet: NAME --> is
// extracted and run through the real code (the widget.json loader, the
// fixture decoder, the Go compiler and the tool audit). It has no code of its
// own.
package docstest

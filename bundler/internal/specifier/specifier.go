// Package specifier classifies import specifiers as Node's resolution
// does: a bare package name ("react", "@scope/pkg/sub") or a path, and a
// package name apart from its subpath. It is separate because the build's
// messages, its CSS "style" condition, its missing-package advice and the
// containment's resolver-config check all ask the same two questions, and
// the containment lives in its own package.
package specifier

import "strings"

// IsBare reports whether an import names a package rather than a file.
func IsBare(spec string) bool {
	return spec != "" && !strings.HasPrefix(spec, ".") && !strings.HasPrefix(spec, "/") && !strings.Contains(spec, ":")
}

// SplitPackage splits "@scope/pkg/sub/path" into "@scope/pkg" and "./sub/path"
// ("." for the package itself).
func SplitPackage(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	n := 1
	if strings.HasPrefix(spec, "@") && len(parts) > 1 {
		n = 2
	}
	if len(parts) <= n {
		return spec, "."
	}
	name = strings.Join(parts[:n], "/")
	return name, "./" + strings.TrimPrefix(spec, name+"/")
}

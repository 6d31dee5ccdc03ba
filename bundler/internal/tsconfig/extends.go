package tsconfig

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// Extends returns the files a tsconfig or jsconfig's "extends" names as
// written (one path, a list, or a package's config), nil when it names
// none or the file does not parse.
func Extends(data []byte) []string {
	var tc struct {
		Extends json.RawMessage `json:"extends"`
	}
	if json.Unmarshal(StripJSONC(data), &tc) != nil || len(tc.Extends) == 0 {
		return nil
	}
	var parents []string
	if json.Unmarshal(tc.Extends, &parents) != nil {
		var one string
		if json.Unmarshal(tc.Extends, &one) != nil {
			return nil
		}
		parents = []string{one}
	}
	return parents
}

// ExtendsCandidates are the files an "extends" of parent, written in a
// config in dir, may name: the path itself and with ".json" added, relative
// to dir or absolute; for a package name, the same under every node_modules
// from dir up, and the package's own tsconfig.json.
func ExtendsCandidates(dir, parent string) []string {
	withJSON := func(p string) []string {
		if strings.HasSuffix(p, ".json") {
			return []string{p}
		}
		return []string{p, p + ".json", filepath.Join(p, "tsconfig.json")}
	}
	if filepath.IsAbs(parent) {
		return withJSON(filepath.Clean(parent))
	}
	if strings.HasPrefix(parent, ".") {
		return withJSON(filepath.Join(dir, filepath.FromSlash(parent)))
	}
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		out = append(out, withJSON(filepath.Join(d, "node_modules", filepath.FromSlash(parent)))...)
		if filepath.Dir(d) == d {
			return out
		}
	}
}

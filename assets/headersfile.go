package assets

import (
	"net/url"
	"sort"
	"strings"
)

// HeadersFile is the name of the header rules file the bundler writes into
// dist/ for static hosts and object stores fronted by a CDN: the
// `_headers` format Cloudflare Pages and Netlify read.
const HeadersFile = "_headers"

// StaticHeaders returns the `_headers` rules (Cloudflare Pages / Netlify
// format) that make a static host send, for every file of m, the headers
// the origin handler sends with it: the cross-origin headers of every
// response on all paths, and each file's Cache-Control. Files that share a
// folder or a top-level stem and one Cache-Control get one splat rule
// (Cloudflare Pages reads at most 100 rules); other files get one rule
// each, and no two rules set
// Cache-Control on the same path, since both hosts join repeated headers
// with a comma. Paths are under m.PublicURL's path (the site root when it
// has none). Content-Type is left to the host, which derives it from the
// file extension as the bundler did. The bytes are deterministic.
func StaticHeaders(m *Manifest) []byte {
	prefix := "/"
	if u, err := url.Parse(m.PublicURL); err == nil && u.Path != "" {
		prefix = strings.TrimSuffix(u.Path, "/") + "/"
	}
	var b strings.Builder
	b.WriteString("# Written by widgetd build from the origin's header rules (docs/serving.md).\n")
	writeRule(&b, prefix+"*", [][2]string{
		{"Access-Control-Allow-Origin", hStar[0]},
		{"Cross-Origin-Resource-Policy", hCrossOrigin[0]},
		{"Timing-Allow-Origin", hStar[0]},
		{"X-Content-Type-Options", hNosniff[0]},
		{"Vary", hVary[0]},
	})
	for _, r := range cacheRules(m) {
		writeRule(&b, prefix+r.pattern, [][2]string{{"Cache-Control", r.cache}})
	}
	return []byte(b.String())
}

// cacheRule is one Cache-Control rule of the headers file.
type cacheRule struct{ pattern, cache string }

// cacheRules groups the manifest's files (with their precompressed
// sidecars, which a static host serves as plain files) and manifest.json by
// Cache-Control: files in a top-level folder become "folder/*", top-level
// files "stem.*" (a widget's hashed HTML of every retained build and their
// sidecars), when every file the pattern covers agrees; anything else, and
// manifest.json, is listed by path.
func cacheRules(m *Manifest) []cacheRule {
	byPath := map[string]string{}
	for _, f := range m.Files {
		c := CacheRevalidate
		if f.Immutable {
			c = CacheImmutable
		}
		byPath[f.Path] = c
		for _, e := range f.Encodings {
			byPath[e.Path] = c
		}
	}
	group := func(p string) string {
		if dir, _, nested := strings.Cut(p, "/"); nested {
			return dir + "/*"
		}
		if stem, _, dotted := strings.Cut(p, "."); dotted && stem != "" {
			return stem + ".*"
		}
		return ""
	}
	groupCache := map[string]string{} // "" value: mixed
	for p, c := range byPath {
		g := group(p)
		if prev, seen := groupCache[g]; seen && prev != c {
			groupCache[g] = ""
		} else if !seen {
			groupCache[g] = c
		}
	}
	// manifest.json is always its own rule, and its stem is no group.
	groupCache[group(ManifestFile)] = ""
	byPath[ManifestFile] = CacheRevalidate
	var rules []cacheRule
	for p, c := range byPath {
		if g := group(p); g != "" && groupCache[g] != "" {
			continue
		}
		rules = append(rules, cacheRule{p, c})
	}
	for g, c := range groupCache {
		if g != "" && c != "" {
			rules = append(rules, cacheRule{g, c})
		}
	}
	sort.Slice(rules, func(i, j int) bool { return rules[i].pattern < rules[j].pattern })
	return rules
}

func writeRule(b *strings.Builder, pattern string, headers [][2]string) {
	b.WriteString(pattern)
	b.WriteByte('\n')
	for _, h := range headers {
		b.WriteString("  ")
		b.WriteString(h[0])
		b.WriteString(": ")
		b.WriteString(h[1])
		b.WriteByte('\n')
	}
}

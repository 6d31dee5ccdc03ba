package importglob

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Bounds of one call: how many folder entries its walk may visit and how
// many files it may match, so a pattern like "/**" fails with a message
// instead of walking a disk.
const (
	MaxVisited = 20000
	MaxMatches = 2000
)

// Match is one file a call matched.
type Match struct {
	// Path is the file's absolute path.
	Path string
	// Key is its key in the object, as Vite writes it: relative to the
	// importing module ("./dir/a.ts", "../b.ts") for a relative pattern,
	// from the project root ("/src/a.ts") otherwise.
	Key string
	// Spec imports it from the importing module ("./dir/a.ts"), without
	// the call's query.
	Spec string
}

// pattern is one pattern of a call, resolved to an absolute slash path.
type pattern struct {
	re       *regexp.Regexp
	base     string // the folder before the first glob character
	negative bool
	fromRoot bool // keys from the project root
}

// Expand returns the files c matches, sorted by path, for the module at
// importer in the project rooted at root, and the folders it walked (a
// file added to one of them changes the result). The importer itself, and
// unless c.Exhaustive anything in node_modules or a dot folder, is never
// matched. A pattern whose folder lies outside root is an error.
func Expand(c Call, importer, root string) ([]Match, []string, error) {
	dir := filepath.ToSlash(filepath.Dir(importer))
	rootSlash := filepath.ToSlash(filepath.Clean(root))
	var positive, negative []pattern
	for _, p := range c.Patterns {
		pat, err := resolvePattern(p, dir, rootSlash)
		if err != nil {
			return nil, nil, err
		}
		if pat.negative {
			negative = append(negative, pat)
		} else {
			positive = append(positive, pat)
		}
	}
	if len(positive) == 0 {
		return nil, nil, fmt.Errorf("import.meta.glob(%s) has only patterns that exclude (!…); add one that matches", strings.Join(quoteAll(c.Patterns), ", "))
	}
	found := map[string]Match{}
	var walked []string
	for _, pat := range positive {
		err := walk(pat, c.Exhaustive, &walked, func(file string) error {
			if file == filepath.ToSlash(importer) || excluded(file, negative) {
				return nil
			}
			if _, dup := found[file]; dup {
				return nil
			}
			if len(found) >= MaxMatches {
				return fmt.Errorf("import.meta.glob(%s) matches more than %d files; narrow the pattern", strings.Join(quoteAll(c.Patterns), ", "), MaxMatches)
			}
			found[file] = matchOf(file, dir, rootSlash, pat.fromRoot)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	out := make([]Match, 0, len(found))
	for _, m := range found {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, walked, nil
}

// resolvePattern resolves p (as Find checked it) against the importer's
// folder dir or the project root.
func resolvePattern(p, dir, root string) (pattern, error) {
	pat := pattern{negative: strings.HasPrefix(p, "!")}
	s := strings.TrimPrefix(p, "!")
	var abs string
	switch {
	case strings.HasPrefix(s, "/"):
		abs, pat.fromRoot = path.Join(root, s), true
	case strings.HasPrefix(s, "**/"):
		abs, pat.fromRoot = root+"/"+s, true
	default:
		abs = path.Join(dir, s)
	}
	if abs != root && !strings.HasPrefix(abs, root+"/") {
		return pattern{}, fmt.Errorf("import.meta.glob pattern %q reaches outside the project (%s); glob files inside it", p, filepath.FromSlash(root))
	}
	re, err := globRegexp(abs)
	if err != nil {
		return pattern{}, fmt.Errorf("import.meta.glob pattern %q: %v", p, err)
	}
	pat.re = re
	pat.base = staticBase(abs)
	return pat, nil
}

// staticBase is the folder of abs before its first segment with a glob
// character.
func staticBase(abs string) string {
	segs := strings.Split(abs, "/")
	for i, s := range segs {
		if strings.ContainsAny(s, "*?[{") {
			return strings.Join(segs[:i], "/")
		}
	}
	return path.Dir(abs)
}

// walk calls found for each file under pat.base that pat matches, and
// appends each folder it reads to walked.
func walk(pat pattern, exhaustive bool, walked *[]string, found func(file string) error) error {
	visited := 0
	base := filepath.FromSlash(pat.base)
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == base && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll // no such folder: nothing matches
			}
			return err
		}
		if visited++; visited > MaxVisited {
			return fmt.Errorf("import.meta.glob: more than %d files and folders under %s; narrow the pattern", MaxVisited, base)
		}
		name := d.Name()
		if p != base && !exhaustive && (name == "node_modules" || strings.HasPrefix(name, ".")) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			*walked = append(*walked, p)
			return nil
		}
		if file := filepath.ToSlash(p); pat.re.MatchString(file) {
			return found(file)
		}
		return nil
	})
	return err
}

// excluded reports whether file matches a negative pattern.
func excluded(file string, negative []pattern) bool {
	for _, n := range negative {
		if n.re.MatchString(file) {
			return true
		}
	}
	return false
}

// matchOf is the Match of file for a pattern relative to dir, or from the
// project root.
func matchOf(file, dir, root string, fromRoot bool) Match {
	spec := relativeSpec(dir, file)
	key := spec
	if fromRoot {
		key = strings.TrimPrefix(file, root)
	}
	return Match{Path: filepath.FromSlash(file), Key: key, Spec: spec}
}

// relativeSpec is file relative to dir, starting with ./ or ../.
func relativeSpec(dir, file string) string {
	rel, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(file))
	if err != nil {
		return file
	}
	rel = filepath.ToSlash(rel)
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel
}

// globRegexp compiles a glob (*, **, ?, [abc], [!abc], {a,b}) over
// slash paths.
func globRegexp(glob string) (*regexp.Regexp, error) {
	body, err := globBody(glob, 0)
	if err != nil {
		return nil, err
	}
	return regexp.Compile("^" + body + "$")
}

func globBody(glob string, depth int) (string, error) {
	if depth > 4 {
		return "", errors.New("braces nest too deeply")
	}
	var sb strings.Builder
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*':
			switch {
			case strings.HasPrefix(glob[i:], "**/"):
				sb.WriteString("(?:[^/]*/)*")
				i += 2
			case strings.HasPrefix(glob[i:], "**"):
				sb.WriteString(".*")
				i++
			default:
				sb.WriteString("[^/]*")
			}
		case '?':
			sb.WriteString("[^/]")
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end <= 0 {
				sb.WriteString(`\[`)
				continue
			}
			class := glob[i+1 : i+1+end]
			neg := strings.HasPrefix(class, "!") || strings.HasPrefix(class, "^")
			if neg {
				class = class[1:]
			}
			class = strings.NewReplacer(`\`, `\\`, `[`, `\[`).Replace(class)
			if neg {
				sb.WriteString("[^/" + class + "]")
			} else {
				sb.WriteString("[" + class + "]")
			}
			i += end + 1
		case '{':
			end := matchingBrace(glob, i)
			if end < 0 {
				sb.WriteString(`\{`)
				continue
			}
			var alts []string
			for _, alt := range splitTopLevel(glob[i+1 : end]) {
				a, err := globBody(alt, depth+1)
				if err != nil {
					return "", err
				}
				alts = append(alts, a)
			}
			sb.WriteString("(?:" + strings.Join(alts, "|") + ")")
			i = end
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return sb.String(), nil
}

// matchingBrace is the index of the } closing the { at open, or -1.
func matchingBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTopLevel splits s at the commas outside nested braces.
func splitTopLevel(s string) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// Package importglob expands Vite's import.meta.glob: a call whose
// arguments are literals (one pattern or an array of them, and an options
// object) becomes an object literal whose keys are the matching files'
// paths and whose values import them, lazily (() => import("./a.ts")) or,
// with eager: true, through import declarations added to the module. Vite
// documents the call at https://vite.dev/guide/features#glob-import.
//
// Find reads the calls out of a module's text, Expand matches their
// patterns against the file system (bounded, never outside the project
// root) and Rewrite writes the module with each call replaced, keeping
// every line where it was.
package importglob

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Call is one import.meta.glob(…) call of a module.
type Call struct {
	// Start and End are the byte offsets of the call in the module's text,
	// from "import" to the closing parenthesis (End is one past it).
	Start, End int
	// Patterns are the patterns as written; those starting with "!" exclude.
	Patterns []string
	// Eager imports the files with import declarations.
	Eager bool
	// Import names the export each value is ("default", a named export),
	// or "" for the module namespace object.
	Import string
	// Query is added to each file's import ("?raw", "?url"), or "".
	Query string
	// Exhaustive also matches files in node_modules and dot folders.
	Exhaustive bool
}

// Error is a call Find could not read, at a byte offset of the module.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// identifierRE is an export name the rewrite can import by name.
var identifierRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// callRE finds the start of a call; the arguments are read by hand.
var callRE = regexp.MustCompile(`\bimport\s*\.\s*meta\s*\.\s*glob\b`)

// Mentions reports whether src may hold an import.meta.glob call (Find
// then says which), cheaply, so modules without one are left alone.
func Mentions(src string) bool {
	return strings.Contains(src, "glob") && callRE.MatchString(src)
}

// Find returns the import.meta.glob calls of src, and an error for each
// one whose arguments are not literals Vite would accept. A match after
// "//" on its line is a comment and is skipped.
func Find(src string) ([]Call, []*Error) {
	var calls []Call
	var errs []*Error
	for _, loc := range callRE.FindAllStringIndex(src, -1) {
		if inLineComment(src, loc[0]) {
			continue
		}
		c, err := readCall(src, loc[0], loc[1])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		calls = append(calls, c)
	}
	return calls, errs
}

// inLineComment reports whether "//" comes before at on its line, outside
// a string literal (a URL in a string is not a comment).
func inLineComment(src string, at int) bool {
	start := strings.LastIndexByte(src[:at], '\n') + 1
	var quote byte
	for i := start; i < at; i++ {
		c := src[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '/' && i+1 < at && src[i+1] == '/':
			return true
		}
	}
	return false
}

// readCall reads the arguments of the call whose name spans [start, at).
func readCall(src string, start, at int) (Call, *Error) {
	r := &literalReader{src: src, at: at}
	r.skipSpace()
	if r.peek() == '<' { // TypeScript: import.meta.glob<Module>(…)
		if err := r.skipTypeArguments(); err != nil {
			return Call{}, err
		}
		r.skipSpace()
	}
	if r.peek() != '(' {
		return Call{}, r.fail("import.meta.glob must be called: import.meta.glob(\"./dir/*.ts\")")
	}
	r.at++
	c := Call{Start: start}
	patterns, err := r.value()
	if err != nil {
		return Call{}, err
	}
	if c.Patterns, err = r.patternList(patterns); err != nil {
		return Call{}, err
	}
	if r.comma() && r.peek() != ')' {
		opts, err := r.value()
		if err != nil {
			return Call{}, err
		}
		if err := r.options(&c, opts); err != nil {
			return Call{}, err
		}
		r.comma() // a trailing comma
	}
	if r.peek() != ')' {
		return Call{}, r.fail("import.meta.glob takes a pattern (or an array of them) and an options object, all literals")
	}
	c.End = r.at + 1
	return c, nil
}

// patternList checks the first argument: a string or an array of strings,
// each relative ("./", "../"), from the project root ("/") or "**/…".
func (r *literalReader) patternList(v literal) ([]string, *Error) {
	var list []literal
	switch v.kind {
	case kindString:
		list = []literal{v}
	case kindArray:
		list = v.items
	default:
		return nil, &Error{v.at, "import.meta.glob's first argument must be a string or an array of strings"}
	}
	if len(list) == 0 {
		return nil, &Error{v.at, "import.meta.glob needs at least one pattern"}
	}
	var out []string
	for _, p := range list {
		if p.kind != kindString {
			return nil, &Error{p.at, "each import.meta.glob pattern must be a string literal"}
		}
		s := strings.TrimPrefix(p.str, "!")
		if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "**/") {
			return nil, &Error{p.at, fmt.Sprintf("import.meta.glob pattern %q must start with ./ or ../ (from this file), / (from the project root) or **/", p.str)}
		}
		out = append(out, p.str)
	}
	return out, nil
}

// options reads the options object into c.
func (r *literalReader) options(c *Call, v literal) *Error {
	if v.kind != kindObject {
		return &Error{v.at, "import.meta.glob's second argument must be an object literal of options"}
	}
	for _, f := range v.fields {
		val := f.value
		wrong := func(what string) *Error {
			return &Error{val.at, fmt.Sprintf("import.meta.glob option %s must be %s", f.key, what)}
		}
		switch f.key {
		case "eager", "exhaustive":
			if val.kind != kindBool {
				return wrong("true or false")
			}
			if f.key == "eager" {
				c.Eager = val.b
			} else {
				c.Exhaustive = val.b
			}
		case "import":
			if val.kind != kindString || !identifierRE.MatchString(val.str) {
				return wrong("an export's name (\"default\", \"setup\")")
			}
			c.Import = val.str
		case "query":
			q, err := queryString(val)
			if err != nil {
				return err
			}
			c.Query = q
		case "as": // deprecated in Vite 5: as: "raw" is query: "?raw", import: "default"
			if val.kind != kindString {
				return wrong("a string")
			}
			c.Query, c.Import = "?"+val.str, "default"
		default:
			return &Error{f.at, fmt.Sprintf("import.meta.glob option %q is not supported (eager, import, query, as, exhaustive are)", f.key)}
		}
	}
	return nil
}

// queryString turns the query option (a string, or an object of string,
// number and boolean values) into the text added to each import.
func queryString(v literal) (string, *Error) {
	switch v.kind {
	case kindString:
		if v.str == "" || strings.HasPrefix(v.str, "?") {
			return v.str, nil
		}
		return "?" + v.str, nil
	case kindObject:
		var parts []string
		for _, f := range v.fields {
			switch f.value.kind {
			case kindString:
				parts = append(parts, f.key+"="+f.value.str)
			case kindNumber:
				parts = append(parts, f.key+"="+f.value.str)
			case kindBool:
				parts = append(parts, f.key+"="+strconv.FormatBool(f.value.b))
			default:
				return "", &Error{f.value.at, "import.meta.glob query values must be strings, numbers or booleans"}
			}
		}
		if len(parts) == 0 {
			return "", nil
		}
		return "?" + strings.Join(parts, "&"), nil
	}
	return "", &Error{v.at, "import.meta.glob option query must be a string or an object literal"}
}

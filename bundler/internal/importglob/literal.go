package importglob

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds how deeply arrays and objects may nest in the arguments.
const maxDepth = 8

// literalKind is the kind of a literal value.
type literalKind int

const (
	kindString literalKind = iota
	kindNumber
	kindBool
	kindArray
	kindObject
)

// literal is one literal value of a call's arguments.
type literal struct {
	kind   literalKind
	at     int    // offset of its first byte
	str    string // a string's value, a number's text
	b      bool
	items  []literal
	fields []field
}

// field is one property of an object literal.
type field struct {
	key   string
	at    int
	value literal
}

// literalReader reads JavaScript literals (strings, numbers, booleans,
// arrays and objects of them), white space and comments from src.
type literalReader struct {
	src   string
	at    int
	depth int
}

func (r *literalReader) peek() byte {
	if r.at < len(r.src) {
		return r.src[r.at]
	}
	return 0
}

func (r *literalReader) fail(msg string) *Error { return &Error{r.at, msg} }

// comma skips white space, then a comma and the white space after it;
// it reports whether there was a comma.
func (r *literalReader) comma() bool {
	r.skipSpace()
	if r.peek() != ',' {
		return false
	}
	r.at++
	r.skipSpace()
	return true
}

// skipSpace skips white space and comments.
func (r *literalReader) skipSpace() {
	for r.at < len(r.src) {
		switch {
		case strings.HasPrefix(r.src[r.at:], "//"):
			if i := strings.IndexByte(r.src[r.at:], '\n'); i >= 0 {
				r.at += i + 1
			} else {
				r.at = len(r.src)
			}
		case strings.HasPrefix(r.src[r.at:], "/*"):
			if i := strings.Index(r.src[r.at+2:], "*/"); i >= 0 {
				r.at += i + 4
			} else {
				r.at = len(r.src)
			}
		case strings.IndexByte(" \t\r\n", r.src[r.at]) >= 0:
			r.at++
		default:
			return
		}
	}
}

// maxTypeArguments bounds the text of TypeScript type arguments skipped.
const maxTypeArguments = 4096

// skipTypeArguments skips a balanced <…> of TypeScript type arguments
// (arrows "=>" and strings inside do not count).
func (r *literalReader) skipTypeArguments() *Error {
	start, depth := r.at, 0
	for r.at < len(r.src) && r.at-start < maxTypeArguments {
		switch c := r.src[r.at]; {
		case strings.HasPrefix(r.src[r.at:], "=>"):
			r.at += 2
			continue
		case c == '"' || c == '\'' || c == '`':
			if _, err := r.stringLiteral(); err != nil {
				return err
			}
			continue
		case c == '<':
			depth++
		case c == '>':
			if depth--; depth == 0 {
				r.at++
				return nil
			}
		}
		r.at++
	}
	return &Error{start, "unterminated type arguments of import.meta.glob"}
}

// value reads one literal.
func (r *literalReader) value() (literal, *Error) {
	r.skipSpace()
	at := r.at
	switch c := r.peek(); {
	case c == '"' || c == '\'' || c == '`':
		s, err := r.stringLiteral()
		return literal{kind: kindString, at: at, str: s}, err
	case c == '[' || c == '{':
		if r.depth >= maxDepth {
			return literal{}, r.fail("import.meta.glob's arguments nest too deeply")
		}
		r.depth++
		defer func() { r.depth-- }()
		if c == '[' {
			return r.array()
		}
		return r.object()
	case c == '-' || c == '.' || (c >= '0' && c <= '9'):
		n := r.at + 1
		for n < len(r.src) && strings.IndexByte("0123456789.eE+-_xXabcdefABCDEF", r.src[n]) >= 0 {
			n++
		}
		r.at = n
		return literal{kind: kindNumber, at: at, str: r.src[at:n]}, nil
	}
	word := r.identifier()
	switch word {
	case "true", "false":
		return literal{kind: kindBool, at: at, b: word == "true"}, nil
	case "":
		return literal{}, r.fail("import.meta.glob's arguments must be literals (strings, arrays, objects, true, false)")
	}
	r.at = at
	return literal{}, r.fail("import.meta.glob's arguments must be literals, not " + word + ": Vite (and widgetd) expand the call when building")
}

// identifier reads an identifier or keyword ("" when none starts here).
func (r *literalReader) identifier() string {
	start := r.at
	for r.at < len(r.src) {
		c := r.src[r.at]
		if c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || r.at > start && c >= '0' && c <= '9' {
			r.at++
			continue
		}
		break
	}
	return r.src[start:r.at]
}

// stringLiteral reads a quoted string (a template literal without
// substitutions) and returns its value.
func (r *literalReader) stringLiteral() (string, *Error) {
	start := r.at
	quote := r.src[r.at]
	r.at++
	var sb strings.Builder
	for r.at < len(r.src) {
		c := r.src[r.at]
		switch {
		case c == quote:
			r.at++
			return sb.String(), nil
		case c == '\n' && quote != '`':
			return "", &Error{start, "unterminated string in import.meta.glob's arguments"}
		case c == '$' && quote == '`' && strings.HasPrefix(r.src[r.at:], "${"):
			return "", &Error{r.at, "import.meta.glob patterns cannot hold ${…}: the files are found when building"}
		case c == '\\' && r.at+1 < len(r.src):
			r.at++
			sb.WriteString(unescape(r.src[r.at]))
			r.at++
		default:
			_, size := utf8.DecodeRuneInString(r.src[r.at:])
			sb.WriteString(r.src[r.at : r.at+size])
			r.at += size
		}
	}
	return "", &Error{start, "unterminated string in import.meta.glob's arguments"}
}

// unescape is the character a backslash escape of c stands for (the
// simple escapes; any other character stands for itself).
func unescape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '\n':
		return "" // a line continuation
	}
	return string(c)
}

// array reads [value, …].
func (r *literalReader) array() (literal, *Error) {
	v := literal{kind: kindArray, at: r.at}
	r.at++
	for {
		r.skipSpace()
		if r.peek() == ']' {
			r.at++
			return v, nil
		}
		item, err := r.value()
		if err != nil {
			return literal{}, err
		}
		v.items = append(v.items, item)
		r.skipSpace()
		switch r.peek() {
		case ',':
			r.at++
		case ']':
		default:
			return literal{}, r.fail("expected , or ] in import.meta.glob's array")
		}
	}
}

// object reads {key: value, …}; keys are identifiers or strings.
func (r *literalReader) object() (literal, *Error) {
	v := literal{kind: kindObject, at: r.at}
	r.at++
	for {
		r.skipSpace()
		if r.peek() == '}' {
			r.at++
			return v, nil
		}
		f := field{at: r.at}
		switch r.peek() {
		case '"', '\'':
			key, err := r.stringLiteral()
			if err != nil {
				return literal{}, err
			}
			f.key = key
		default:
			if f.key = r.identifier(); f.key == "" {
				return literal{}, r.fail("expected a property name in import.meta.glob's options")
			}
		}
		r.skipSpace()
		if r.peek() != ':' {
			return literal{}, r.fail("expected : after " + strconv.Quote(f.key) + " in import.meta.glob's options")
		}
		r.at++
		val, err := r.value()
		if err != nil {
			return literal{}, err
		}
		f.value = val
		v.fields = append(v.fields, f)
		r.skipSpace()
		switch r.peek() {
		case ',':
			r.at++
		case '}':
		default:
			return literal{}, r.fail("expected , or } in import.meta.glob's options")
		}
	}
}

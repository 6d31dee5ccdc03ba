package sourcemap

import "unicode/utf8"

// Offset is the byte offset in text of the zero-based line and the
// zero-based column counted in UTF-16 units (as browsers and source maps
// count them), or false when text has no such place.
func Offset(text []byte, line, col int) (int, bool) {
	if line < 0 || col < 0 {
		return 0, false
	}
	off := 0
	for ; line > 0; line-- {
		i := indexNewline(text[off:])
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	for units := 0; units < col; {
		if off >= len(text) || text[off] == '\n' {
			return 0, false
		}
		r, n := utf8.DecodeRune(text[off:])
		off += n
		units += utf16Len(r)
	}
	return off, true
}

// LineColumn is the zero-based line and UTF-16 column of byte offset off
// in text (off is clamped to the text).
func LineColumn(text []byte, off int) (line, col int) {
	off = max(0, min(off, len(text)))
	start := 0
	for i := 0; i < off; i++ {
		if text[i] == '\n' {
			line++
			start = i + 1
		}
	}
	for i := start; i < off; {
		r, n := utf8.DecodeRune(text[i:])
		i += n
		col += utf16Len(r)
	}
	return line, col
}

func indexNewline(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

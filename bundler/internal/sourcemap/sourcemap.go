// Package sourcemap reads source maps (version 3, as esbuild writes them)
// and answers one question: which source position made a generated one.
// widgetd uses it so CSP violations, uncaught errors and check findings name
// widgets/<name>/<file>:line:col instead of a place in a minified bundle.
// The standard library and golang.org/x have no decoder, so this is a small
// one: no index maps, no names.
package sourcemap

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// maxMapSize bounds the JSON a Map is decoded from.
const maxMapSize = 64 << 20

// Map is a decoded source map: for each generated line, its segments
// sorted by generated column.
type Map struct {
	// Sources are the source paths as the map names them (relative to the
	// map's own folder for esbuild).
	Sources []string
	// Contents are the sources' texts, "" where the map holds none.
	Contents []string
	lines    [][]segment
}

// segment maps a generated column to a source position (all zero-based).
type segment struct {
	genCol, source, line, col int
}

// Position is a place in a source: zero-based line and column (UTF-16
// units, as in the map), with the source's index in Map.Sources.
type Position struct {
	Source int
	Line   int
	Column int
}

// Decode reads a version 3 source map.
func Decode(data []byte) (*Map, error) {
	if len(data) > maxMapSize {
		return nil, fmt.Errorf("source map: %d bytes, more than the %d read", len(data), maxMapSize)
	}
	var raw struct {
		Version        int       `json:"version"`
		Sources        []string  `json:"sources"`
		SourcesContent []*string `json:"sourcesContent"`
		Mappings       string    `json:"mappings"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("source map: %w", err)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("source map: version %d, only 3 is read", raw.Version)
	}
	m := &Map{Sources: raw.Sources, Contents: make([]string, len(raw.Sources))}
	for i, c := range raw.SourcesContent {
		if i < len(m.Contents) && c != nil {
			m.Contents[i] = *c
		}
	}
	lines, err := decodeMappings(raw.Mappings, len(raw.Sources))
	if err != nil {
		return nil, fmt.Errorf("source map: mappings: %w", err)
	}
	m.lines = lines
	return m, nil
}

// decodeMappings decodes the "mappings" field: lines separated by ';',
// segments by ','; each segment's fields are base64 VLQ deltas.
func decodeMappings(s string, nSources int) ([][]segment, error) {
	var lines [][]segment
	var src, line, col int
	for _, lineText := range strings.Split(s, ";") {
		var segs []segment
		genCol := 0
		for _, segText := range strings.Split(lineText, ",") {
			if segText == "" {
				continue
			}
			f, err := decodeVLQs(segText)
			if err != nil {
				return nil, err
			}
			genCol += f[0]
			if genCol < 0 {
				return nil, errors.New("negative generated column")
			}
			if len(f) == 1 {
				continue // a segment with no source
			}
			if len(f) < 4 {
				return nil, fmt.Errorf("segment %q has %d fields; want 1, 4 or 5", segText, len(f))
			}
			src, line, col = src+f[1], line+f[2], col+f[3]
			if src < 0 || src >= nSources || line < 0 || col < 0 {
				return nil, fmt.Errorf("segment %q points outside the sources", segText)
			}
			segs = append(segs, segment{genCol: genCol, source: src, line: line, col: col})
		}
		sort.SliceStable(segs, func(i, j int) bool { return segs[i].genCol < segs[j].genCol })
		lines = append(lines, segs)
	}
	return lines, nil
}

// decodeVLQs decodes the base64 VLQ values of one segment (at most 5).
func decodeVLQs(s string) ([]int, error) {
	var out []int
	value, shift := 0, 0
	for i := 0; i < len(s); i++ {
		d := base64Digit(s[i])
		if d < 0 {
			return nil, fmt.Errorf("invalid base64 character %q", s[i])
		}
		if shift > 30 {
			return nil, errors.New("VLQ value too large")
		}
		value |= (d & 31) << shift
		shift += 5
		if d&32 != 0 {
			continue
		}
		v := value >> 1
		if value&1 != 0 {
			v = -v
		}
		if out = append(out, v); len(out) > 5 {
			return nil, fmt.Errorf("segment %q has more than 5 fields", s)
		}
		value, shift = 0, 0
	}
	if shift != 0 {
		return nil, fmt.Errorf("segment %q ends inside a value", s)
	}
	return out, nil
}

func base64Digit(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// Lookup returns the source position of the generated zero-based line and
// column: the last segment of that line at or before the column.
func (m *Map) Lookup(line, col int) (Position, bool) {
	if m == nil || line < 0 || line >= len(m.lines) {
		return Position{}, false
	}
	segs := m.lines[line]
	i := sort.Search(len(segs), func(i int) bool { return segs[i].genCol > col }) - 1
	if i < 0 {
		return Position{}, false
	}
	s := segs[i]
	return Position{Source: s.source, Line: s.line, Column: s.col}, true
}

// LineText is line (zero-based) of source i's content, or "".
func (m *Map) LineText(i, line int) string {
	if m == nil || i < 0 || i >= len(m.Contents) {
		return ""
	}
	return Line(m.Contents[i], line)
}

// Line is line (zero-based) of text without its line ending, or "".
func Line(text string, line int) string {
	if line < 0 {
		return ""
	}
	for ; line > 0; line-- {
		nl := strings.IndexByte(text, '\n')
		if nl < 0 {
			return ""
		}
		text = text[nl+1:]
	}
	if nl := strings.IndexByte(text, '\n'); nl >= 0 {
		text = text[:nl]
	}
	return strings.TrimSuffix(text, "\r")
}

package assets

import (
	"strings"

	"github.com/widgetd/widgetd/internal/acceptenc"
)

// negotiate picks the representation for the Accept-Encoding field values ae
// (RFC 9110 §12.5.3): the highest q-value among the available codings, ties
// broken by server preference br > gzip > identity, which is the first
// available coding of acceptenc's Ranking. It returns nil when nothing is
// acceptable. No allocations.
func (e *entry) negotiate(ae []string) *variant {
	if len(ae) == 0 {
		return &e.identity
	}
	w := acceptenc.Parse(ae...)
	var best *variant
	bestQ := 0
	if e.br != nil && w.Br > bestQ {
		best, bestQ = e.br, w.Br
	}
	if e.gzip != nil && w.Gzip > bestQ {
		best, bestQ = e.gzip, w.Gzip
	}
	if w.Identity > bestQ {
		best = &e.identity
	}
	return best
}

// etagListMatch implements If-None-Match (RFC 9110 §13.1.2): "*" matches any
// current representation; otherwise a comma-separated list of entity tags is
// compared weakly (the W/ prefix is ignored on both sides). No allocations.
func etagListMatch(fields []string, etag string) bool {
	etag = strings.TrimPrefix(etag, "W/")
	for _, f := range fields {
		for f != "" {
			f = strings.TrimLeft(f, " \t,")
			if f == "" {
				break
			}
			if f[0] == '*' {
				return true
			}
			f = strings.TrimPrefix(f, "W/")
			if f == "" || f[0] != '"' {
				// malformed: skip to the next element
				i := strings.IndexByte(f, ',')
				if i < 0 {
					break
				}
				f = f[i+1:]
				continue
			}
			end := strings.IndexByte(f[1:], '"')
			if end < 0 {
				break
			}
			tag := f[:end+2]
			if tag == etag {
				return true
			}
			f = f[end+2:]
		}
	}
	return false
}

package assets

import "strings"

// negotiate picks the representation for the Accept-Encoding field values ae
// (RFC 9110 §12.5.3): the highest q-value among the available codings, ties
// broken by server preference br > gzip > identity. A coding not listed takes
// the q-value of "*" when present, else is unacceptable; identity is
// acceptable unless excluded by "identity;q=0" (or "*;q=0" without an
// identity entry). It returns nil when nothing is acceptable. No allocations.
func (e *entry) negotiate(ae []string) *variant {
	if len(ae) == 0 {
		return &e.identity
	}
	qBr, qGzip, qID, qStar := -1, -1, -1, -1
	for _, field := range ae {
		for field != "" {
			var elem string
			if i := strings.IndexByte(field, ','); i >= 0 {
				elem, field = field[:i], field[i+1:]
			} else {
				elem, field = field, ""
			}
			coding, q, ok := parseCoding(elem)
			if !ok {
				continue
			}
			switch {
			case strings.EqualFold(coding, "br"):
				qBr = max(qBr, q)
			case strings.EqualFold(coding, "gzip"), strings.EqualFold(coding, "x-gzip"):
				qGzip = max(qGzip, q)
			case strings.EqualFold(coding, "identity"):
				qID = max(qID, q)
			case coding == "*":
				qStar = max(qStar, q)
			}
		}
	}
	if qBr < 0 {
		qBr = max(qStar, 0)
	}
	if qGzip < 0 {
		qGzip = max(qStar, 0)
	}
	if qID < 0 {
		qID = 1 // identity is acceptable unless excluded
		if qStar == 0 {
			qID = 0
		}
	}
	var best *variant
	bestQ := 0
	if e.br != nil && qBr > bestQ {
		best, bestQ = e.br, qBr
	}
	if e.gzip != nil && qGzip > bestQ {
		best, bestQ = e.gzip, qGzip
	}
	if qID > bestQ {
		best = &e.identity
	}
	return best
}

// parseCoding splits one Accept-Encoding element into its coding and its
// q-value in thousandths (1000 when absent). ok is false for an empty or
// malformed element, which is then ignored.
func parseCoding(elem string) (coding string, q int, ok bool) {
	elem = strings.TrimSpace(elem)
	if elem == "" {
		return "", 0, false
	}
	q = 1000
	params := ""
	if i := strings.IndexByte(elem, ';'); i >= 0 {
		coding, params = strings.TrimSpace(elem[:i]), elem[i+1:]
	} else {
		coding = elem
	}
	if coding == "" {
		return "", 0, false
	}
	for params != "" {
		var p string
		if i := strings.IndexByte(params, ';'); i >= 0 {
			p, params = params[:i], params[i+1:]
		} else {
			p, params = params, ""
		}
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=' {
			v, vok := parseQ(strings.TrimSpace(p[2:]))
			if !vok {
				return "", 0, false
			}
			q = v
		}
	}
	return coding, q, true
}

// parseQ parses an RFC 9110 qvalue ("0", "0.5", "1", "1.000") into
// thousandths.
func parseQ(s string) (int, bool) {
	if s == "" || len(s) > 5 {
		return 0, false
	}
	if s[0] != '0' && s[0] != '1' {
		return 0, false
	}
	whole := int(s[0] - '0')
	if len(s) == 1 {
		return whole * 1000, true
	}
	if s[1] != '.' {
		return 0, false
	}
	frac, scale := 0, 100
	for i := 2; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		frac += int(c-'0') * scale
		scale /= 10
	}
	if whole == 1 && frac != 0 {
		return 0, false
	}
	return whole*1000 + frac, true
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

// Package acceptenc reads an Accept-Encoding request header (RFC 9110
// §12.5.3) for the three content codings widgetd serves: br, gzip and
// identity. The assets origin handler picks a representation with it and
// origin/internal/fastserve keys its memo of that handler's responses on the same
// reading, so the two cannot disagree about what a header means. It uses
// only the standard library (assets may import it) and allocates nothing.
package acceptenc

import "strings"

// Coding is a content coding the origin can send.
type Coding uint8

// The codings, in the server's order of preference for equal q-values.
// None marks an unused slot of a Ranking.
const (
	None Coding = iota
	Br
	Gzip
	Identity
)

// Ranking lists the acceptable codings, most preferred first: by falling
// q-value, ties broken by server preference br > gzip > identity. Slots
// after the acceptable ones are None. A server picks the first coding in
// it that it has; none means 406.
type Ranking [3]Coding

// Weights are the q-values, in thousandths, that an Accept-Encoding header
// gives br, gzip and identity; 0 means not acceptable. Identity, acceptable
// unless excluded, weighs 1 when the header does not list it, below any
// listed coding.
type Weights struct{ Br, Gzip, Identity int }

// Rank reads the Accept-Encoding field values ae and ranks the codings:
// Parse(ae...).Rank().
func Rank(ae ...string) Ranking { return Parse(ae...).Rank() }

// Parse reads the Accept-Encoding field values ae (none: no header, which
// means identity only). A coding not listed takes the q-value of "*" when
// present, else is unacceptable; identity is acceptable unless excluded by
// "identity;q=0" (or "*;q=0" without an identity entry); "x-gzip" is gzip.
// Malformed elements are ignored.
func Parse(ae ...string) Weights {
	qBr, qGzip, qID, qStar := -1, -1, -1, -1
	for _, field := range ae {
		for field != "" {
			var elem string
			elem, field = cutByte(field, ',')
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
	return Weights{qBr, qGzip, qID}
}

// Rank orders the codings by weight, ties keeping server order, and keeps
// the acceptable ones.
func (w Weights) Rank() Ranking {
	codings := Ranking{Br, Gzip, Identity}
	qs := [3]int{w.Br, w.Gzip, w.Identity}
	for i := 1; i < 3; i++ { // insertion sort, stable
		for j := i; j > 0 && qs[j] > qs[j-1]; j-- {
			qs[j], qs[j-1] = qs[j-1], qs[j]
			codings[j], codings[j-1] = codings[j-1], codings[j]
		}
	}
	var r Ranking
	n := 0
	for i := range 3 {
		if qs[i] > 0 {
			r[n] = codings[i]
			n++
		}
	}
	return r
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
	coding, params := elem, ""
	if i := strings.IndexByte(elem, ';'); i >= 0 {
		coding, params = strings.TrimSpace(elem[:i]), elem[i+1:]
	}
	if coding == "" {
		return "", 0, false
	}
	for params != "" {
		var p string
		p, params = cutByte(params, ';')
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

// cutByte is strings.Cut for a one-byte separator, without the general
// substring search: this runs for every element of every request's header.
func cutByte(s string, sep byte) (before, after string) {
	if i := strings.IndexByte(s, sep); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
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

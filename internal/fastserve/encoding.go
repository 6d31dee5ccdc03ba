package fastserve

import "bytes"

// encodingClass is what an Accept-Encoding value means to a handler that
// negotiates among br, gzip and identity by RFC 9110 q-values, ties going to
// br, then gzip, then identity (as assets' handler does): the acceptable
// codings in the order the handler prefers them, 2 bits each (codingBr,
// codingGzip, codingIdentity), first in the low bits. For any set of
// available codings the handler picks the first available one in this
// order, so two requests with the same class get the same response, and
// there are only 16 classes whatever clients send. The memo is keyed on it,
// not on the raw header, so junk values cannot crowd real ones out.
type encodingClass uint8

const (
	codingBr       = 1
	codingGzip     = 2
	codingIdentity = 3
)

// classOf computes the class of the Accept-Encoding value ae (present
// false: no header, which means identity only). Malformed elements are
// ignored, as the handler ignores them.
func classOf(ae []byte, present bool) encodingClass {
	if !present {
		return codingIdentity
	}
	qBr, qGzip, qID, qStar := -1, -1, -1, -1
	for len(ae) > 0 {
		var elem []byte
		if i := bytes.IndexByte(ae, ','); i >= 0 {
			elem, ae = ae[:i], ae[i+1:]
		} else {
			elem, ae = ae, nil
		}
		coding, q, ok := parseCoding(elem)
		if !ok {
			continue
		}
		switch {
		case bytes.EqualFold(coding, []byte("br")):
			qBr = max(qBr, q)
		case bytes.EqualFold(coding, []byte("gzip")), bytes.EqualFold(coding, []byte("x-gzip")):
			qGzip = max(qGzip, q)
		case bytes.EqualFold(coding, []byte("identity")):
			qID = max(qID, q)
		case len(coding) == 1 && coding[0] == '*':
			qStar = max(qStar, q)
		}
	}
	if qBr < 0 {
		qBr = max(qStar, 0)
	}
	if qGzip < 0 {
		qGzip = max(qStar, 0)
	}
	if qID < 0 {
		qID = 1
		if qStar == 0 {
			qID = 0
		}
	}
	// Insertion sort of three by q, descending; ties keep server order.
	codings := [3]int{codingBr, codingGzip, codingIdentity}
	qs := [3]int{qBr, qGzip, qID}
	for i := 1; i < 3; i++ {
		for j := i; j > 0 && qs[j] > qs[j-1]; j-- {
			qs[j], qs[j-1] = qs[j-1], qs[j]
			codings[j], codings[j-1] = codings[j-1], codings[j]
		}
	}
	var c encodingClass
	shift := 0
	for i := range 3 {
		if qs[i] > 0 {
			c |= encodingClass(codings[i]) << shift
			shift += 2
		}
	}
	return c
}

// parseCoding splits one Accept-Encoding element into its coding and its
// q-value in thousandths (1000 when absent); ok is false for an empty or
// malformed element. It mirrors assets' parser byte for byte (FuzzClassOf
// checks the two agree through the handler).
func parseCoding(elem []byte) (coding []byte, q int, ok bool) {
	elem = bytes.TrimSpace(elem)
	if len(elem) == 0 {
		return nil, 0, false
	}
	q = 1000
	var params []byte
	if i := bytes.IndexByte(elem, ';'); i >= 0 {
		coding, params = bytes.TrimSpace(elem[:i]), elem[i+1:]
	} else {
		coding = elem
	}
	if len(coding) == 0 {
		return nil, 0, false
	}
	for len(params) > 0 {
		var p []byte
		if i := bytes.IndexByte(params, ';'); i >= 0 {
			p, params = params[:i], params[i+1:]
		} else {
			p, params = params, nil
		}
		p = bytes.TrimSpace(p)
		if len(p) >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=' {
			v, vok := parseQ(bytes.TrimSpace(p[2:]))
			if !vok {
				return nil, 0, false
			}
			q = v
		}
	}
	return coding, q, true
}

// parseQ parses an RFC 9110 qvalue ("0", "0.5", "1", "1.000") into
// thousandths.
func parseQ(s []byte) (int, bool) {
	if len(s) == 0 || len(s) > 5 || s[0] != '0' && s[0] != '1' {
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
	for _, c := range s[2:] {
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

// acceptEncoding returns an Accept-Encoding value of class c: its codings
// with falling q-values, every other coding refused. Tests use it as the
// class's canonical spelling.
func (c encodingClass) acceptEncoding() string {
	names := [4]string{"", "br", "gzip", "identity"}
	qs := []string{"1", "0.9", "0.8"}
	var out []string
	seen := [4]bool{}
	for i := 0; c != 0; i, c = i+1, c>>2 {
		k := int(c & 3)
		seen[k] = true
		out = append(out, names[k]+";q="+qs[i])
	}
	for k := 1; k <= 3; k++ {
		if !seen[k] {
			out = append(out, names[k]+";q=0")
		}
	}
	b := []byte{}
	for i, s := range out {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, s...)
	}
	return string(b)
}

package fastserve

import (
	"unsafe"

	"github.com/widgetd/widgetd/internal/acceptenc"
)

// encodingClass is what an Accept-Encoding value means to a handler that
// negotiates among br, gzip and identity by RFC 9110 q-values, ties going to
// br, then gzip, then identity (as assets' handler does, with acceptenc):
// acceptenc's Ranking packed into a byte, the acceptable codings in the
// order the handler prefers them, 2 bits each, first in the low bits. For
// any set of available codings the handler picks the first available one in
// this order, so two requests with the same class get the same response,
// and there are only 16 classes whatever clients send. The memo is keyed on
// it, not on the raw header, so junk values cannot crowd real ones out.
type encodingClass uint8

// classOf computes the class of the Accept-Encoding value ae (present
// false: no header, which means identity only) with acceptenc, the reading
// assets' handler negotiates with. Malformed elements are ignored, as the
// handler ignores them.
func classOf(ae []byte, present bool) encodingClass {
	if !present {
		return encodingClass(acceptenc.Identity)
	}
	// ae points into the connection's read buffer, which does not change
	// during the call, and Rank keeps nothing: viewing it as a string
	// spares the hot path a copy.
	var c encodingClass
	for i, coding := range acceptenc.Rank(unsafe.String(unsafe.SliceData(ae), len(ae))) {
		c |= encodingClass(coding) << (2 * i)
	}
	return c
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

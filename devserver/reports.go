package devserver

import (
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Bounds of the CSP report endpoint. Reports come from the preview page,
// but any local process can post them, so each is small, the set of
// reports already printed is bounded, and the rate is limited.
const (
	// maxReportBody is the largest report body read; larger ones get 413.
	maxReportBody = 16 << 10
	// maxReportField is the longest value of any report field kept.
	maxReportField = 2048
	// maxReportsSeen is how many distinct violations are remembered (per
	// build) so each is printed once; the oldest is forgotten first.
	maxReportsSeen = 1024
	// reportRate and reportBurst limit reports per second; beyond, 429.
	reportRate  = 50
	reportBurst = 200
)

// reportLimits bounds the CSP report endpoint. The zero value is unusable;
// see newReportLimits.
type reportLimits struct {
	mu   sync.Mutex
	seen boundedSet
	rate tokenBucket
}

func newReportLimits() *reportLimits {
	return &reportLimits{seen: boundedSet{max: maxReportsSeen}, rate: tokenBucket{rate: reportRate, burst: reportBurst}}
}

// allow takes one token from the rate limiter.
func (l *reportLimits) allow(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rate.take(now)
}

// firstTime records key and reports whether it was new.
func (l *reportLimits) firstTime(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seen.add(key)
}

// reset forgets every printed violation (a new build).
func (l *reportLimits) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen.clear()
}

// size is the number of remembered violations.
func (l *reportLimits) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.seen.m)
}

// boundedSet is a set of at most max keys; adding to a full set evicts the
// oldest key.
type boundedSet struct {
	max   int
	m     map[string]struct{}
	order []string // insertion order, a ring once full
	next  int      // the ring slot to overwrite next
}

func (s *boundedSet) add(k string) bool {
	if _, ok := s.m[k]; ok {
		return false
	}
	if s.m == nil {
		s.m = map[string]struct{}{}
	}
	if len(s.order) < s.max {
		s.order = append(s.order, k)
	} else {
		delete(s.m, s.order[s.next])
		s.order[s.next] = k
		s.next = (s.next + 1) % s.max
	}
	s.m[k] = struct{}{}
	return true
}

func (s *boundedSet) clear() {
	clear(s.m)
	s.order = s.order[:0]
	s.next = 0
}

// tokenBucket allows rate events per second on average, burst at once.
type tokenBucket struct {
	rate, burst float64
	tokens      float64
	last        time.Time
}

func (b *tokenBucket) take(now time.Time) bool {
	if b.last.IsZero() {
		b.tokens = b.burst
	} else if d := now.Sub(b.last).Seconds(); d > 0 {
		b.tokens = min(b.burst, b.tokens+d*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// clipViolation bounds every field of a report.
func clipViolation(v *cspViolation) {
	for _, f := range []*string{&v.Widget, &v.Host, &v.Directive, &v.BlockedURI, &v.SourceFile, &v.Sample} {
		*f = clip(*f, maxReportField)
	}
}

// quoteForTerminal makes untrusted text safe to print: control characters
// (ANSI escape sequences start with ESC), C1 controls, bidirectional
// overrides and invalid UTF-8 are written as Go escapes, so a report can
// neither restyle nor rewrite the developer's terminal.
func quoteForTerminal(s string) string {
	if !needsQuoting(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				b.WriteString(`\x` + strconv.FormatUint(uint64(s[i]), 16))
				continue
			}
		}
		if unsafeRune(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func needsQuoting(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if unsafeRune(r) {
			return true
		}
	}
	return false
}

// unsafeRune is a control, format (bidi overrides, zero-width) or line/
// paragraph separator character.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

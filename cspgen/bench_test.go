package cspgen

import "testing"

// BenchmarkNew measures validating and normalising a typical widget's lists
// (the bundler does this once per widget per build).
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(fullDomains); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHeader measures the cached header read done per served resource.
func BenchmarkHeader(b *testing.B) {
	p := mustNewF(fullDomains)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Header()
	}
}

// BenchmarkAllows measures one URL check, the unit of work of `widgetd check`
// over every URL found in a bundle.
func BenchmarkAllows(b *testing.B) {
	p := mustNewF(fullDomains)
	b.ReportAllocs()
	for b.Loop() {
		if !p.Allows(ImgSrc, "https://a.static.example.com/img/logo.png?v=3") {
			b.Fatal("blocked")
		}
	}
}

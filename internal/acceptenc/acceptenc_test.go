package acceptenc

import "testing"

// TestRank pins how Accept-Encoding values rank the codings.
func TestRank(t *testing.T) {
	for _, tc := range []struct {
		ae   []string
		want Ranking
	}{
		{nil, Ranking{Identity}},
		{[]string{""}, Ranking{Identity}},
		{[]string{"gzip, deflate, br, zstd"}, Ranking{Br, Gzip, Identity}},
		{[]string{"gzip"}, Ranking{Gzip, Identity}},
		// identity not listed keeps its minimal weight, below any q > 0
		{[]string{"x-gzip;q=0.5, *;q=0.6"}, Ranking{Br, Gzip, Identity}},
		{[]string{"br;q=0.5, gzip;q=0.9"}, Ranking{Gzip, Br, Identity}},
		{[]string{"br;q=0, gzip"}, Ranking{Gzip, Identity}},
		{[]string{"identity;q=0"}, Ranking{}},
		{[]string{"*;q=0"}, Ranking{}},
		{[]string{"*;q=0, identity"}, Ranking{Identity}},
		{[]string{"*"}, Ranking{Br, Gzip, Identity}},
		{[]string{"BR;Q=1"}, Ranking{Br, Identity}},
		// an invalid q drops its element; "0." is q=0
		{[]string{"br;q=1.0001, gzip;q=0."}, Ranking{Identity}},
		// "q =" is not a q parameter
		{[]string{" \tbr ; q = 0.5"}, Ranking{Br, Identity}},
		{[]string{"gzip", "br"}, Ranking{Br, Gzip, Identity}},
		{[]string{";;,q=,br;q=2,\xff"}, Ranking{Identity}},
	} {
		if got := Rank(tc.ae...); got != tc.want {
			t.Errorf("Rank(%q) = %v, want %v", tc.ae, got, tc.want)
		}
	}
}

// TestParse pins the weights behind a ranking: identity not listed weighs
// 1, a coding covered only by "*" takes its weight.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		ae   []string
		want Weights
	}{
		{nil, Weights{0, 0, 1}},
		{[]string{"gzip"}, Weights{0, 1000, 1}},
		{[]string{"br;q=0.5, *;q=0.25"}, Weights{500, 250, 1}},
		{[]string{"*;q=0"}, Weights{0, 0, 0}},
		{[]string{"identity;q=0.1", "x-gzip;q=0.2"}, Weights{0, 200, 100}},
	} {
		if got := Parse(tc.ae...); got != tc.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.ae, got, tc.want)
		}
	}
}

// TestRankAllocs keeps Rank off the allocator: the origin calls it per request.
func TestRankAllocs(t *testing.T) {
	ae := []string{"gzip, deflate, br;q=0.9, zstd"}
	if n := testing.AllocsPerRun(100, func() { Rank(ae...) }); n != 0 {
		t.Errorf("Rank allocates %v times, want 0", n)
	}
}

package ci

import "testing"

func TestRunning(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{"", false},
		{"true", true},
		{"1", true},
		{"TRUE", true},
		{"yes", true}, // not a boolean, but someone set CI on purpose
		{"woodpecker", true},
		{"false", false},
		{"0", false},
		{"F", false},
	} {
		t.Run(tc.value, func(t *testing.T) {
			t.Setenv("CI", tc.value)
			if got := Running(); got != tc.want {
				t.Errorf("CI=%q: Running() = %v, want %v", tc.value, got, tc.want)
			}
		})
	}
}

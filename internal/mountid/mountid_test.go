package mountid

import (
	"slices"
	"testing"
)

func TestLookedUp(t *testing.T) {
	js := []byte(`document.querySelector("#app");document.getElementById('pizza-root');` +
		"document.getElementById(`root`);document.getElementById(id);document.getElementById('pizza-root')")
	// getElementById lookups first, each kind in source order, no repeats;
	// a computed id is not a literal lookup.
	if got, want := LookedUp(js), []string{"pizza-root", "root", "app"}; !slices.Equal(got, want) {
		t.Errorf("LookedUp = %q, want %q", got, want)
	}
}

func TestIsMount(t *testing.T) {
	for id, want := range map[string]bool{"root": true, "app": true, "pizza-root": true, "pizza_root": true, "pizzaRoot": true, "header": false, "rootless": false} {
		if got := IsMount(id); got != want {
			t.Errorf("IsMount(%q) = %v, want %v", id, got, want)
		}
	}
}

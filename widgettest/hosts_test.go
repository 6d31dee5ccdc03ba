package widgettest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/fixture"
)

// TestBaselineNames: mcp-apps (and its old name mcp) keeps the committed
// <fixture>.mcp.png, the other hosts use their own names, and unknown host
// names are refused.
func TestBaselineNames(t *testing.T) {
	for _, tc := range []struct{ host, file string }{
		{"mcp", "default.mcp.png"},
		{"mcp-apps", "default.mcp.png"},
		{"chatgpt", "default.chatgpt.png"},
		{"chatgpt-legacy", "default.chatgpt-legacy.png"},
		{"claude", "default.claude.png"},
	} {
		hosts, err := canonicalHosts([]string{tc.host})
		if err != nil {
			t.Fatalf("%s: %v", tc.host, err)
		}
		p := plan{fixture: &fixture.Named{Name: "default"}, host: hosts[0], dir: "w"}
		if got := filepath.Base(p.baseline()); got != tc.file {
			t.Errorf("%s: baseline %s, want %s", tc.host, got, tc.file)
		}
	}
	if hosts, _ := canonicalHosts([]string{"mcp", "mcp-apps", "chatgpt"}); !slices.Equal(hosts, []string{"mcp-apps", "chatgpt"}) {
		t.Errorf("mcp and mcp-apps are one host: %v", hosts)
	}
	if _, err := canonicalHosts([]string{"gemini"}); err == nil || !strings.Contains(err.Error(), "mcp-apps, chatgpt, chatgpt-legacy, claude") {
		t.Errorf("unknown host: %v", err)
	}
}

// TestStaleBaselinesKeepHostsNotRun: a run of the default hosts reports the
// baseline of a removed fixture, but not the baselines of claude and
// chatgpt-legacy, which it did not render.
func TestStaleBaselinesKeepHostsNotRun(t *testing.T) {
	dir := t.TempDir()
	shots := filepath.Join(dir, fixture.Dir, BaselineDir)
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"default.mcp.png", "default.chatgpt.png", "default.claude.png", "default.chatgpt-legacy.png", "gone.mcp.png", "gone.claude.png", "default.mcp.actual.png"} {
		if err := os.WriteFile(filepath.Join(shots, f), []byte("png"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var plans []plan
	for _, h := range DefaultHosts() {
		plans = append(plans, plan{fixture: &fixture.Named{Name: "default"}, host: h, dir: dir})
	}
	var got []string
	for _, f := range staleBaselines(plans, DefaultHosts(), false) {
		got = append(got, filepath.Base(f))
	}
	if !slices.Equal(got, []string{"gone.mcp.png"}) {
		t.Errorf("stale %v, want [gone.mcp.png]", got)
	}
	var withClaude []string
	for _, f := range staleBaselines(plans, append(DefaultHosts(), devserver.HostClaude), false) {
		withClaude = append(withClaude, filepath.Base(f))
	}
	// claude ran but rendered no fixture: both its baselines are stale.
	if !slices.Equal(withClaude, []string{"default.claude.png", "gone.claude.png", "gone.mcp.png"}) {
		t.Errorf("stale with claude run %v", withClaude)
	}
}

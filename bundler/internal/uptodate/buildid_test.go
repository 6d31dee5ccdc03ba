package uptodate

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestIdentify: a clean VCS checkout is its revision, a module from a proxy
// its checksum; edits in the checkout, a replaced module or no VCS stamp
// fall back to the executable (its Go build ID, else its hash, as for these
// files that are not ELF), so widgetd code changed under one version string
// is told apart; nothing to go by, or an executable over the limit,
// identifies nothing.
func TestIdentify(t *testing.T) {
	dir := t.TempDir()
	exeA, exeB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	testfiles.WriteFile(t, exeA, "widgetd one")
	testfiles.WriteFile(t, exeB, "widgetd two")
	vcs := func(revision, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: revision}, {Key: "vcs.modified", Value: modified}}}
	}
	hashA := "exe:" + Sum([]byte("widgetd one"))
	sum := "h1:abc="
	asDep := &debug.BuildInfo{Main: debug.Module{Path: "example.com/server", Version: "(devel)"},
		Deps: []*debug.Module{{Path: "golang.org/x/net", Version: "v0.1.0", Sum: "h1:x="}, {Path: module, Version: "v1.2.0", Sum: sum}}}
	replaced := &debug.BuildInfo{Deps: []*debug.Module{{Path: module, Version: "v1.2.0", Sum: sum, Replace: &debug.Module{Path: "../widgetd"}}}}
	for _, tc := range []struct {
		name  string
		info  *debug.BuildInfo
		exe   string
		limit int64
		want  string
	}{
		{"clean checkout", vcs("abc123", "false"), exeA, 1 << 20, "vcs:abc123"},
		{"clean checkout, exe unknown", vcs("abc123", "false"), "", 1 << 20, "vcs:abc123"},
		{"checkout with edits", vcs("abc123", "true"), exeA, 1 << 20, hashA},
		{"installed from a proxy", &debug.BuildInfo{Main: debug.Module{Path: module, Version: "v1.2.0", Sum: sum}}, exeA, 1 << 20, "mod:v1.2.0 " + sum},
		{"a go tool dependency", asDep, exeA, 1 << 20, "mod:v1.2.0 " + sum},
		{"a replaced dependency", replaced, exeA, 1 << 20, hashA},
		{"no VCS stamp", &debug.BuildInfo{}, exeA, 1 << 20, hashA},
		{"no build info", nil, exeA, 1 << 20, hashA},
		{"other executable", nil, exeB, 1 << 20, "exe:" + Sum([]byte("widgetd two"))},
		{"executable at the limit", nil, exeA, int64(len("widgetd one")), hashA},
		{"executable over the limit", nil, exeA, 4, ""},
		{"executable gone", nil, filepath.Join(dir, "gone"), 1 << 20, ""},
		{"nothing to go by", vcs("abc123", "true"), "", 1 << 20, ""},
	} {
		if got := identify(tc.info, tc.exe, tc.limit); got != tc.want {
			t.Errorf("%s: identify = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestBuildID: the test binary itself (go test stamps no VCS information)
// is identified by the Go build ID the go command reads from it, the same
// on every call.
func TestBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Fatalf("go tool buildid: %v", err)
	}
	id := BuildID()
	if want := "go:" + strings.TrimSpace(string(out)); id != want {
		t.Fatalf("BuildID = %q, want %q", id, want)
	}
	if BuildID() != id {
		t.Fatal("BuildID changed within one process")
	}
}

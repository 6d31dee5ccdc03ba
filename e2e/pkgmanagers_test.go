package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/browsertest"
	"github.com/widgetd/widgetd/internal/ci"
	"github.com/widgetd/widgetd/internal/copytree"
)

// pinnedPackageManagers is what .ci/run installs: npm i -g pnpm@… yarn@….
const pinnedPackageManagers = "pnpm@10.34.9 yarn@1.22.22"

// packageManagerCase is one fixture project installed by a package manager
// other than npm, with Tailwind CSS v4 only through @tailwindcss/vite.
type packageManagerCase struct {
	pm      string   // the command: pnpm or yarn
	install []string // its install arguments (the committed lock file, unchanged)
	// hidden are packages the layout must not have at the top of
	// node_modules (so the build finds them only through the plugin).
	hidden []string
}

// TestPackageManagerLayouts copies each fixture into a temporary folder,
// runs the real `pnpm install` / `yarn install` against its committed lock
// file (from the npm registry), builds it, and renders the widget with its
// Tailwind styles applied in the AppBridge host and both ChatGPT hosts. pnpm
// keeps @tailwindcss/node and @tailwindcss/oxide out of the top of
// node_modules (they are dependencies of @tailwindcss/vite, in its
// symlinked store), so the build must resolve them the way the plugin does,
// and the store's symlinks must pass the containment rules.
func TestPackageManagerLayouts(t *testing.T) {
	for _, tc := range []packageManagerCase{
		{pm: "pnpm", install: []string{"install", "--frozen-lockfile", "--reporter=append-only"}, hidden: []string{"@tailwindcss/node", "@tailwindcss/oxide"}},
		{pm: "yarn", install: []string{"install", "--frozen-lockfile", "--non-interactive", "--no-progress"}},
	} {
		t.Run(tc.pm, func(t *testing.T) {
			t.Parallel()
			bin := requirePackageManager(t, tc.pm)
			dir := filepath.Join(t.TempDir(), tc.pm)
			copyFixture(t, browsertest.RepoPath(t, filepath.Join("e2e", "testdata", tc.pm)), dir)
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, tc.install...)
			cmd.Dir = dir
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s %s: %v\n%s", tc.pm, strings.Join(tc.install, " "), err, out)
			}
			t.Logf("%s install in %v", tc.pm, time.Since(start).Round(time.Millisecond))
			for _, pkg := range tc.hidden {
				if _, err := os.Lstat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg))); err == nil {
					t.Errorf("%s put %s at the top of node_modules; the fixture no longer tests resolution through @tailwindcss/vite", tc.pm, pkg)
				}
			}
			bw := assembleInline(t, bundler.Options{Root: dir, OutDir: filepath.Join(dir, "dist"), NoCache: true})
			renderInHosts(t, bw, []example{tailwindCard(tc.pm + "-card")}, nil)
		})
	}
}

// tailwindCard is what a fixture's Tailwind widget must render: the text,
// and the utilities (the theme's colour among them) applied.
func tailwindCard(name string) example {
	return example{name: name,
		want: map[string]string{"#title": "Installed with " + strings.TrimSuffix(name, "-card")},
		wait: []string{
			`w.getComputedStyle(w.document.getElementById("title")).color == "rgb(10, 125, 69)"`, // text-brand from @theme
			`w.getComputedStyle(w.document.getElementById("title")).fontWeight == "700"`,         // font-bold
			`w.getComputedStyle(w.document.getElementById("title")).textTransform == "uppercase"`,
			`w.getComputedStyle(w.document.querySelector("main")).paddingTop == "16px"`, // p-4
			`w.getComputedStyle(w.document.getElementById("note")).display == "none"`,   // hidden
		}}
}

// requirePackageManager returns the path of pm, failing under CI (which
// installs it) and skipping elsewhere when it is not installed.
func requirePackageManager(t *testing.T, pm string) string {
	t.Helper()
	bin, err := exec.LookPath(pm)
	if err == nil {
		return bin
	}
	if ci.Running() {
		t.Fatalf("%s is not installed, and CI is set: .ci/run installs it (npm i -g %s)", pm, pinnedPackageManagers)
	}
	t.Skipf("%s not installed: npm i -g %s to run this test", pm, pinnedPackageManagers)
	return ""
}

// copyFixture copies the fixture project src to dst, leaving out any
// node_modules a local install left there.
func copyFixture(t *testing.T, src, dst string) {
	t.Helper()
	if err := copytree.Copy(src, dst, copytree.Options{Skip: copytree.SkipNamed("node_modules")}); err != nil {
		t.Fatal(err)
	}
}

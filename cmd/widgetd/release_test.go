package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestRelease: scripts/release for this machine's platform, into a temp
// folder, as a release is made: SHA256SUMS lists exactly the binary and
// matches it (by hand and by sha256sum -c); the binary is static, built with
// -trimpath (no checkout path inside) and says the release's version; and
// the npm packages made from it install from their packed tarballs into a JS
// project where npm exec widgetd builds widgets. (The other five targets
// cross-compile the same way; building them all here would take minutes.)
func TestRelease(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks an ELF binary and installs the linux npm package")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "release")
	version := bundler.Version + "-test.1"
	runCommand(t, repo, nil, "scripts/release", "--out", out, "--version", version, "--targets", runtime.GOOS+"/"+runtime.GOARCH)
	name := "widgetd-" + version + "-" + runtime.GOOS + "-" + runtime.GOARCH

	t.Run("checksums", func(t *testing.T) {
		sums := readSums(t, filepath.Join(out, "SHA256SUMS"))
		if len(sums) != 1 || sums[name] == "" {
			t.Fatalf("SHA256SUMS lists %v, want only %s", sums, name)
		}
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != sums[name] {
			t.Errorf("SHA256SUMS says %s, the binary's is %x", sums[name], got)
		}
		runCommand(t, out, nil, "sha256sum", "--check", "--strict", "SHA256SUMS")
	})
	t.Run("binary", func(t *testing.T) {
		bin := filepath.Join(out, name)
		assertStaticELF(t, bin)
		if got := runCommand(t, out, nil, bin, "version"); got != "widgetd "+version+"\n" {
			t.Errorf("%s version: %q, want widgetd %s", name, got, version)
		}
		data, _ := os.ReadFile(bin)
		if bytes.Contains(data, []byte(repo)) {
			t.Errorf("the binary holds the checkout's path %s: not built with -trimpath", repo)
		}
	})
	t.Run("npm", func(t *testing.T) { testNPMPackages(t, filepath.Join(out, "npm"), version) })
}

// TestReleaseRefuses: a version that is not semver, or that differs from
// bundler.Version (what manifests record), or an --out folder holding
// something else than a previous release, stops the release before anything
// is built or deleted.
func TestReleaseRefuses(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, version, existing, want string
	}{
		{name: "other version", version: "9.9.9", want: "does not match bundler.Version " + bundler.Version},
		{name: "not semver", version: bundler.Version + "_x", want: "is not semver"},
		{name: "v prefix", version: "v" + bundler.Version, want: "is not semver"},
		{name: "out holds other files", version: bundler.Version, existing: "main.go", want: "holds no previous release"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "release")
			if tc.existing != "" {
				testfiles.WriteFile(t, filepath.Join(out, tc.existing), "package main\n")
			}
			cmd := exec.Command("scripts/release", "--out", out, "--version", tc.version)
			cmd.Dir = repo
			msg, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || !strings.Contains(string(msg), tc.want) {
				t.Errorf("scripts/release --version %s: %v, %s; want a failure saying %q", tc.version, err, msg, tc.want)
			}
			entries, _ := os.ReadDir(out)
			if (tc.existing == "") != (len(entries) == 0) || (tc.existing != "" && entries[0].Name() != tc.existing) {
				t.Errorf("a refused release changed %s: %v", out, entries)
			}
		})
	}
}

// readSums parses a sha256sum file: "<hex>  <name>" per line.
func readSums(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, file, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("%s: bad line %q", path, sc.Text())
		}
		sums[file] = sum
	}
	return sums
}

// nodePlatform is this machine's npm platform package suffix.
func nodePlatform(t *testing.T) string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		t.Fatalf("no npm package for %s", runtime.GOARCH)
	}
	return "linux-" + arch
}

// testNPMPackages packs the thin widgetd package and this platform's
// package, installs the tarballs offline into a JS project, and uses them as
// a widget author would: npm exec widgetd init, npm exec widgetd build.
// Without the platform package the shim says which package to install.
func testNPMPackages(t *testing.T, npmDir, version string) {
	platform := nodePlatform(t)
	var manifest struct {
		Bin                  map[string]string
		OptionalDependencies map[string]string
		Scripts              map[string]string
	}
	data, _ := os.ReadFile(filepath.Join(npmDir, "widgetd", "package.json"))
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	if manifest.OptionalDependencies["@widgetd/"+platform] != version || manifest.Bin["widgetd"] != "bin/widgetd" || len(manifest.Scripts) > 0 {
		t.Fatalf("npm/widgetd/package.json: %s", data)
	}
	var plat struct {
		Name, Version string
		OS, CPU       []string
		Scripts       map[string]string
	}
	data, _ = os.ReadFile(filepath.Join(npmDir, "@widgetd", platform, "package.json"))
	if err := json.Unmarshal(data, &plat); err != nil {
		t.Fatal(err)
	}
	if plat.Name != "@widgetd/"+platform || plat.Version != version || len(plat.OS) != 1 || plat.OS[0] != "linux" || len(plat.CPU) != 1 || len(plat.Scripts) > 0 {
		t.Fatalf("the platform package.json: %s", data)
	}

	tarballs := t.TempDir()
	npm := []string{"--no-audit", "--no-fund", "--offline", "--loglevel=error"}
	runCommand(t, npmDir, nil, "npm", append([]string{"pack", "./widgetd", "./@widgetd/" + platform, "--pack-destination", tarballs}, npm...)...)
	thin := filepath.Join(tarballs, "widgetd-"+version+".tgz")
	binary := filepath.Join(tarballs, "widgetd-"+platform+"-"+version+".tgz")

	// The thin package alone: the shim names the missing platform package.
	alone := t.TempDir()
	testfiles.WriteFile(t, filepath.Join(alone, "package.json"), `{"name": "alone", "private": true}`)
	runCommand(t, alone, nil, "npm", append([]string{"install", "-D", thin}, npm...)...)
	cmd := exec.Command(filepath.Join(alone, "node_modules", ".bin", "widgetd"), "version")
	if msg, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(msg), "@widgetd/"+platform+" is not installed") {
		t.Errorf("widgetd without its platform package: %v, %s", err, msg)
	}

	app := filepath.Join(t.TempDir(), "my-app")
	testfiles.WriteFile(t, filepath.Join(app, "package.json"), `{"name": "my-app", "private": true, "scripts": {"build": "widgetd build"}}`)
	runCommand(t, app, nil, "npm", append([]string{"install", "-D", thin, binary}, npm...)...)
	entries, _ := filepath.Glob(filepath.Join(app, "node_modules", "*", "*", "bin", "*"))
	sort.Strings(entries)
	if got := runCommand(t, app, nil, "npm", "exec", "widgetd", "version"); got != "widgetd "+version+"\n" {
		t.Errorf("npm exec widgetd version: %q (installed binaries: %v)", got, entries)
	}
	runCommand(t, app, nil, "npm", "exec", "--", "widgetd", "init", ".", "--widget", "clock")
	if out := runCommand(t, app, nil, "npm", "exec", "widgetd", "build"); !strings.Contains(out, "ui://widget/clock.") {
		t.Errorf("npm exec widgetd build:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(app, "dist", "manifest.json")); err != nil {
		t.Errorf("npm exec widgetd build wrote no dist/manifest.json: %v", err)
	}
	runCommand(t, app, nil, "npm", "run", "--silent", "build")
	// The shim passes the binary's exit status through: 2 is a usage error.
	cmd = exec.Command(filepath.Join(app, "node_modules", ".bin", "widgetd"), "no-such-command")
	if err := cmd.Run(); exitCode(err) != exitUsage {
		t.Errorf("widgetd no-such-command through the shim: %v, want exit %d", err, exitUsage)
	}
}

func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestMain lets the test binary act as the widgetd command, so the hardening
// tests can run real widgetd processes (and kill them) without a go build.
func TestMain(m *testing.M) {
	if os.Getenv("WIDGETD_TEST_AS_CLI") == "1" {
		os.Exit(runWithSignals(os.Args[1:], os.Stdout, os.Stderr, os.Exit))
	}
	os.Exit(m.Run())
}

// widgetdCmd returns a command running this test binary as widgetd.
func widgetdCmd(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WIDGETD_TEST_AS_CLI=1")
	return cmd
}

// manyFilesProject writes a project whose external build writes several
// hundred files, so a kill can land in the middle of writing. variant
// changes every widget's content.
func manyFilesProject(t *testing.T, root string, variant int) {
	t.Helper()
	files := map[string]string{}
	for w := 0; w < 6; w++ {
		dir := fmt.Sprintf("widgets/w%d/", w)
		files[dir+"widget.json"] = `{"title": "W"}`
		var src strings.Builder
		for a := 0; a < 25; a++ {
			name := fmt.Sprintf("icon%d.svg", a)
			files[dir+name] = fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>%d-%d-%d %s</text></svg>`, variant, w, a, strings.Repeat("x", 300))
			fmt.Fprintf(&src, "import i%d from \"./%s\";\n", a, name)
		}
		src.WriteString("document.body.append(" + strings.Repeat("i0 + i1 + ", 1) + "i24);\n")
		fmt.Fprintf(&src, "console.log(%q);\n", strings.Repeat(fmt.Sprintf("variant %d widget %d ", variant, w), 400))
		files[dir+"index.ts"] = src.String()
		files[dir+"style.css"] = fmt.Sprintf(".w%d { content: %q }\n", w, strings.Repeat("v", 2000+variant))
	}
	testfiles.Write(t, root, files)
}

// verifyDist checks that dir is one complete build: the manifest parses,
// every file and encoding it lists exists with its recorded hash, and no
// unlisted file is present. It returns the build ID.
func verifyDist(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, assets.ManifestFile))
	if err != nil {
		return "", err
	}
	var m assets.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("manifest: %w", err)
	}
	// manifest.json and _headers are not listed in the manifest; _headers
	// must be the one derived from this manifest.
	listed := map[string]string{assets.ManifestFile: "", assets.HeadersFile: hex.EncodeToString(sha256Sum(assets.StaticHeaders(&m)))}
	for _, f := range m.Files {
		listed[f.Path] = f.SHA256
		for _, e := range f.Encodings {
			listed[e.Path] = e.SHA256
		}
	}
	for _, w := range m.Widgets {
		if _, ok := listed[w.HTML]; !ok {
			return "", fmt.Errorf("widget %s: HTML %s not listed", w.Name, w.HTML)
		}
	}
	seen := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		sum, ok := listed[rel]
		if !ok {
			return fmt.Errorf("unlisted file %s", rel)
		}
		seen++
		if sum == "" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := sha256.Sum256(b)
		if hex.EncodeToString(s[:]) != sum {
			return fmt.Errorf("%s: content does not match the manifest", rel)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if seen != len(listed) {
		return "", fmt.Errorf("%d files listed, %d present", len(listed), seen)
	}
	return m.BuildID, nil
}

// TestCrashSafety kills widgetd build with SIGKILL at many points — while it
// bundles and compresses, and while it writes the new dist/ — and checks that
// dist/ is always the complete old build or the complete new one, and that
// the next build succeeds.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("kills real processes; skipped in -short mode")
	}
	root := t.TempDir()
	args := []string{"build", "--public-url", "https://cdn.example.com"}
	// Reference build IDs of both variants.
	ids := map[string]int{}
	for v := 0; v < 2; v++ {
		manyFilesProject(t, root, v)
		if out, err := widgetdCmd(t, root, args...).CombinedOutput(); err != nil {
			t.Fatalf("variant %d: %v\n%s", v, err, out)
		}
		id, err := verifyDist(filepath.Join(root, "dist"))
		if err != nil {
			t.Fatal(err)
		}
		ids[id] = v
	}
	if len(ids) != 2 {
		t.Fatal("variants did not produce two builds")
	}
	dist := filepath.Join(root, "dist")
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 24
	killedWhileWriting := 0
	for i := 0; i < trials; i++ {
		before, err := verifyDist(dist)
		if err != nil {
			t.Fatalf("trial %d: dist invalid before the trial: %v", i, err)
		}
		manyFilesProject(t, root, 1-ids[before])
		cmd := widgetdCmd(t, root, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		duringWrite := i%3 != 0
		if duringWrite {
			// Wait for the temporary output folder, then kill a random
			// moment into the write.
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				if m, _ := filepath.Glob(filepath.Join(root, ".dist.tmp-*")); len(m) > 0 {
					break
				}
				time.Sleep(100 * time.Microsecond)
			}
			time.Sleep(time.Duration(rng.IntN(30000)) * time.Microsecond)
		} else {
			time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
		killed := err != nil
		if killed && duringWrite {
			killedWhileWriting++
		}
		after, err := verifyDist(dist)
		if err != nil {
			t.Fatalf("trial %d (killed=%v, during write=%v): dist/ is not a complete build: %v", i, killed, duringWrite, err)
		}
		if _, ok := ids[after]; !ok {
			t.Fatalf("trial %d: dist/ holds an unknown build %s", i, after)
		}
	}
	t.Logf("%d trials, %d killed while writing", trials, killedWhileWriting)
	if killedWhileWriting < 5 {
		t.Errorf("only %d kills landed while writing; the test did not exercise the write phase", killedWhileWriting)
	}
	// The next build succeeds and leaves no temporary folders behind.
	if out, err := widgetdCmd(t, root, args...).CombinedOutput(); err != nil {
		t.Fatalf("build after crashes: %v\n%s", err, out)
	}
	if _, err := verifyDist(dist); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, ".dist.tmp-*")); len(m) > 0 {
		t.Errorf("temporary folders left after a successful build: %v", m)
	}
}

// TestConcurrentBuilds runs two builds into the same dist/ at once: dist/
// must stay valid, and a build that could not take the lock must say so.
func TestConcurrentBuilds(t *testing.T) {
	root := t.TempDir()
	manyFilesProject(t, root, 0)
	for round := 0; round < 4; round++ {
		manyFilesProject(t, root, round%2)
		var cmds []*exec.Cmd
		var outs []*bytes.Buffer
		for i := 0; i < 2; i++ {
			c := widgetdCmd(t, root, "build", "--public-url", "https://cdn.example.com")
			var b bytes.Buffer
			c.Stdout, c.Stderr = &b, &b
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			cmds, outs = append(cmds, c), append(outs, &b)
		}
		ok := 0
		for i, c := range cmds {
			if err := c.Wait(); err == nil {
				ok++
			} else if !strings.Contains(outs[i].String(), "another widgetd build is writing") {
				t.Errorf("round %d: a concurrent build failed without saying why: %v\n%s", round, err, outs[i])
			}
		}
		if ok == 0 {
			t.Errorf("round %d: neither concurrent build succeeded", round)
		}
		if _, err := verifyDist(filepath.Join(root, "dist")); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// TestDeterministicAcrossMachines builds the same project from two folders
// with different TMPDIR and GOMAXPROCS and compares dist/ byte for byte.
func TestDeterministicAcrossMachines(t *testing.T) {
	var sums []string
	for i, procs := range []string{"1", "2"} {
		root := filepath.Join(t.TempDir(), fmt.Sprintf("checkout-%d", i), "project")
		manyFilesProject(t, root, 0)
		for _, args := range [][]string{{"build"}, {"build", "--public-url", "https://cdn.example.com", "--out", "dist-ext"}} {
			c := widgetdCmd(t, root, args...)
			c.Env = append(c.Env, "GOMAXPROCS="+procs, "TMPDIR="+t.TempDir())
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
		}
		sums = append(sums, treeSum(t, filepath.Join(root, "dist"))+"/"+treeSum(t, filepath.Join(root, "dist-ext")))
	}
	if sums[0] != sums[1] {
		t.Fatalf("builds differ across folders, TMPDIR and GOMAXPROCS: %s vs %s", sums[0], sums[1])
	}
}

// treeSum hashes the names and contents of every file below dir (fileSums).
func treeSum(t *testing.T, dir string) string {
	t.Helper()
	sums := fileSums(t, dir)
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%s\x00", n, sums[n])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func sha256Sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

package uptodate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// size stands for the bundler's measured bridge size.
type size struct{ Gzip int }

// recorded is a project with one input, a dist/ holding one file and its
// brotli encoding, and the record of the build that wrote it.
type recorded struct {
	src, input, out, record string
}

const testKey = "key-1"

func newRecorded(t *testing.T) recorded {
	t.Helper()
	r := recorded{src: t.TempDir(), out: t.TempDir()}
	r.input = filepath.Join(r.src, "main.ts")
	r.record = Path(t.TempDir(), r.out)
	testfiles.WriteFile(t, r.input, "console.log(1)")
	testfiles.WriteFile(t, filepath.Join(r.out, "w.html"), "<p>w</p>")
	testfiles.WriteFile(t, filepath.Join(r.out, "w.html.br"), "br")
	m := assets.Manifest{Files: []assets.File{{Path: "w.html", Encodings: []assets.Encoding{{Name: "br", Path: "w.html.br"}}}}}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	testfiles.WriteFile(t, filepath.Join(r.out, assets.ManifestFile), string(data))
	rec := Record[*size]{Key: testKey, Inputs: map[string]string{r.input: Sum([]byte("console.log(1)"))},
		Dirs: map[string]int64{r.src: 0}, Bridge: &size{Gzip: 7}, Warnings: []diag.Diagnostic{{File: "w", Message: "m", Warning: true}}}
	if err := Save(r.record, r.out, &rec, displaypath.WorkingDir()); err != nil {
		t.Fatal(err)
	}
	return r
}

func keyOf(k string) func() (string, error) { return func() (string, error) { return k, nil } }

// TestCheck: an unchanged build is up to date and gives back the manifest,
// bridge size and warnings it recorded; every kind of change or damage
// (the key, the widgetd that wrote it, an input, a folder, the manifest, a
// dist/ file or encoding, the record itself) means "build again".
func TestCheck(t *testing.T) {
	r := newRecorded(t)
	rec, m := Check[*size](r.record, r.out, keyOf(testKey))
	if rec == nil || m == nil || len(m.Files) != 1 || rec.Bridge == nil || rec.Bridge.Gzip != 7 || len(rec.Warnings) != 1 || rec.Build != BuildID() {
		t.Fatalf("unchanged build not up to date: record %+v, manifest %+v", rec, m)
	}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, r recorded)
		key    string
	}{
		{"key differs", func(*testing.T, recorded) {}, "key-2"},
		{"input edited", func(t *testing.T, r recorded) { testfiles.WriteFile(t, r.input, "console.log(2)") }, testKey},
		{"input removed", func(t *testing.T, r recorded) { os.Remove(r.input) }, testKey},
		{"input replaced by a FIFO", func(t *testing.T, r recorded) { replaceWithFIFO(t, r.input) }, testKey},
		{"file added beside the input", func(t *testing.T, r recorded) {
			testfiles.WriteFile(t, filepath.Join(r.src, "new.ts"), "")
			touchDir(t, r.src)
		}, testKey},
		{"manifest edited", func(t *testing.T, r recorded) {
			testfiles.WriteFile(t, filepath.Join(r.out, assets.ManifestFile), `{"files": []}`)
		}, testKey},
		{"dist file removed", func(t *testing.T, r recorded) { os.Remove(filepath.Join(r.out, "w.html")) }, testKey},
		{"encoding removed", func(t *testing.T, r recorded) { os.Remove(filepath.Join(r.out, "w.html.br")) }, testKey},
		{"dist file a folder", func(t *testing.T, r recorded) {
			os.Remove(filepath.Join(r.out, "w.html"))
			os.Mkdir(filepath.Join(r.out, "w.html"), 0o755)
		}, testKey},
		{"written by another widgetd", func(t *testing.T, r recorded) { editRecord(t, r.record, "build", "exe:other") }, testKey},
		{"record without inputs", func(t *testing.T, r recorded) { editRecord(t, r.record, "inputs", map[string]string{}) }, testKey},
		{"record damaged", func(t *testing.T, r recorded) { testfiles.WriteFile(t, r.record, `{"key": `) }, testKey},
		{"record removed", func(t *testing.T, r recorded) { Discard(r.record) }, testKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorded(t)
			tc.change(t, r)
			if rec, m := Check[*size](r.record, r.out, keyOf(tc.key)); rec != nil || m != nil {
				t.Fatalf("up to date after %s", tc.name)
			}
		})
	}
}

// touchDir moves dir's modification time, as adding a file does on any
// clock, coarse or not.
func touchDir(t *testing.T, dir string) {
	t.Helper()
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(dir, later, later); err != nil {
		t.Fatal(err)
	}
}

// editRecord sets one field of the record file at p.
func editRecord(t *testing.T, p, field string, value any) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw[field] = value
	if data, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	testfiles.WriteFile(t, p, string(data))
}

// TestCheckRunsKeyOnlyWithARecord: computing the key reads every widget's
// files, so a build with no record to compare it with does not.
func TestCheckRunsKeyOnlyWithARecord(t *testing.T) {
	out := t.TempDir()
	ran := false
	key := func() (string, error) { ran = true; return testKey, nil }
	if rec, _ := Check[*size](Path(t.TempDir(), out), out, key); rec != nil || ran {
		t.Fatalf("no record: got %v, key computed %v", rec, ran)
	}
	r := newRecorded(t)
	if rec, _ := Check[*size](r.record, r.out, key); rec == nil || !ran {
		t.Fatalf("with a record: got %v, key computed %v", rec, ran)
	}
}

// TestSaveFailures: Save says why a record could not be written, naming
// the file, and Discard leaves nothing behind; with no cache folder
// (path "") both do nothing.
func TestSaveFailures(t *testing.T) {
	display := displaypath.WorkingDir()
	out := t.TempDir()
	rec := &Record[*size]{Inputs: map[string]string{"a": "b"}, Dirs: map[string]int64{}}
	if err := Save(Path(t.TempDir(), out), out, rec, display); err == nil || !strings.Contains(err.Error(), "read back") || !strings.Contains(err.Error(), assets.ManifestFile) {
		t.Errorf("no manifest: err = %v", err)
	}
	testfiles.WriteFile(t, filepath.Join(out, assets.ManifestFile), `{}`)
	blocked := filepath.Join(t.TempDir(), "cache")
	testfiles.WriteFile(t, blocked, "a file where the cache folder should be")
	if err := Save(Path(blocked, out), out, rec, display); err == nil || !strings.Contains(err.Error(), "create the record's folder") {
		t.Errorf("cache folder a file: err = %v", err)
	}
	gone := &Record[*size]{Dirs: map[string]int64{filepath.Join(out, "gone"): 0}}
	if err := Save(Path(t.TempDir(), out), out, gone, display); err == nil || !strings.Contains(err.Error(), "stat a source folder") {
		t.Errorf("source folder gone: err = %v", err)
	}
	if err := Save("", out, rec, display); err != nil {
		t.Errorf("no cache folder: err = %v", err)
	}
	r := newRecorded(t)
	if err := Discard(r.record); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(r.record); !os.IsNotExist(err) {
		t.Errorf("record still there after Discard: %v", err)
	}
	if err := Discard(r.record); err != nil {
		t.Errorf("Discard of no record: %v", err)
	}
}

// TestPath: one record per output folder, none without a cache folder.
func TestPath(t *testing.T) {
	cache := t.TempDir()
	a, b := Path(cache, "/p/dist"), Path(cache, "/q/dist")
	if a == "" || a == b || a != Path(cache, "/p/dist") || !strings.HasPrefix(a, filepath.Join(cache, "builds")+string(filepath.Separator)) {
		t.Errorf("paths %q and %q", a, b)
	}
	if p := Path("", "/p/dist"); p != "" {
		t.Errorf("no cache folder: path %q", p)
	}
}

// replaceWithFIFO puts a FIFO at p, which a reader that blocked on it would
// never get past.
func replaceWithFIFO(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

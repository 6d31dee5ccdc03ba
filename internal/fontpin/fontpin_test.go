package fontpin

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestInstall: the fonts land once in a folder named by their content, next
// to their licence and a fonts.conf naming that folder; a second Install
// rewrites nothing, and a damaged file is written again.
func TestInstall(t *testing.T) {
	root := t.TempDir()
	conf, err := Install(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(conf)
	if filepath.Dir(dir) != root || !strings.HasPrefix(filepath.Base(dir), "fonts-") || filepath.Base(conf) != ConfName {
		t.Fatalf("fonts.conf at %s, want %s/fonts-<hash>/%s", conf, root, ConfName)
	}
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := []string{"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
		"DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf", "LICENSE"}
	total := 0
	for _, name := range wantFiles {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) != files[name] || len(data) < 1000 {
			t.Errorf("%s: %d bytes, embedded %d, %v", name, len(data), files[name], err)
		}
		total += len(data)
	}
	if len(files) != len(wantFiles) || total > 4<<20 {
		t.Errorf("embedded files %v (%d bytes), want %v under 4 MB", files, total, wantFiles)
	}
	confText, _ := os.ReadFile(conf)
	if string(confText) != Conf(dir) || strings.Contains(string(confText), "<include") {
		t.Errorf("fonts.conf:\n%s", confText)
	}

	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	mono := filepath.Join(dir, "DejaVuSansMono.ttf")
	for _, f := range []string{conf, mono} {
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if again, err := Install(root); err != nil || again != conf {
		t.Fatalf("second Install: %s, %v; want %s", again, err, conf)
	}
	for _, f := range []string{conf, mono} {
		if st, err := os.Stat(f); err != nil || !st.ModTime().Equal(old) {
			t.Errorf("second Install rewrote %s", f)
		}
	}
	if err := os.WriteFile(mono, []byte("truncated"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(root); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(mono); len(data) != files["DejaVuSansMono.ttf"] {
		t.Errorf("a damaged font was not written again: %d bytes", len(data))
	}
}

// TestInstallUnwritable: a cache folder that cannot be written is an error
// naming what failed, not a Chromium with the system's fonts.
func TestInstallUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(file); err == nil || !strings.Contains(err.Error(), "pinned fonts") {
		t.Errorf("Install into a file: %v", err)
	}
}

// fontconfig runs a fontconfig tool with HOME and XDG_DATA_HOME in a
// folder holding a planted font (a font a user installed), and
// FONTCONFIG_FILE set to conf unless conf is "".
func fontconfig(t *testing.T, home, conf string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(args[0]); err != nil {
		t.Fatalf("%s not found: install fontconfig (apt-get install fontconfig; Chromium's own dependencies bring it): %v", args[0], err)
	}
	cmd := exec.Command(args[0], args[1:]...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FONTCONFIG_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	if conf != "" {
		cmd.Env = append(cmd.Env, "FONTCONFIG_FILE="+conf)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

// TestConfUsesOnlyEmbeddedFonts: under the private fonts.conf, fontconfig
// sees the embedded fonts and nothing else — not a font the user installed
// (planted in ~/.fonts and ~/.local/share/fonts, which the system's
// configuration does see), not the system's — and resolves every generic
// family and common font name to the embedded family meant for it, with the
// pinned rendering settings.
func TestConfUsesOnlyEmbeddedFonts(t *testing.T) {
	conf, err := Install(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(conf)
	home := t.TempDir()
	planted := filepath.Join(home, ".local", "share", "fonts", "Planted.ttf")
	font, _ := embedded.ReadFile("fonts/DejaVuSerif-Bold.ttf")
	for _, p := range []string{planted, filepath.Join(home, ".fonts", "Planted.ttf")} {
		testfiles.WriteFile(t, p, string(font))
	}
	if all := fontconfig(t, home, "", "fc-list", "-f", "%{file}\n"); !strings.Contains(all, planted) {
		t.Fatalf("control: the system configuration does not see the planted %s, so this test could not see a leak:\n%s", planted, all)
	}
	files := strings.Fields(fontconfig(t, home, conf, "fc-list", "-f", "%{file}\n"))
	if len(files) != 6 {
		t.Errorf("fc-list under the pinned fonts.conf lists %d fonts, want the 6 embedded: %v", len(files), files)
	}
	for _, f := range files {
		if filepath.Dir(f) != dir {
			t.Errorf("fc-list under the pinned fonts.conf lists %s, outside %s", f, dir)
		}
	}

	tests := []struct{ name, want string }{
		{"sans-serif", Sans}, {"serif", Serif}, {"monospace", Mono}, {"system-ui", Sans},
		{"cursive", Sans}, {"fantasy", Sans}, {"emoji", Sans}, {"math", Sans},
		{"Arial", Sans}, {"Helvetica", Sans}, {"-apple-system", Sans}, {"Segoe UI", Sans}, {"Roboto", Sans},
		{"Times New Roman", Serif}, {"Georgia", Serif},
		{"Courier New", Mono}, {"Menlo", Mono}, {"Noto Sans Mono", Mono},
		{"monospace:bold", Mono}, {"No Such Font Anywhere", Sans},
	}
	for _, tt := range tests {
		got := fontconfig(t, home, conf, "fc-match", "-f", "%{family[0]}|%{file}|%{antialias}|%{hinting}|%{hintstyle}|%{rgba}|%{lcdfilter}", "--", tt.name)
		parts := strings.Split(got, "|")
		if len(parts) != 7 || parts[0] != tt.want || filepath.Dir(parts[1]) != dir {
			t.Errorf("fc-match %q = %q, want %s from %s", tt.name, got, tt.want, dir)
			continue
		}
		if settings := strings.Join(parts[2:], "|"); settings != "True|False|0|5|0" {
			t.Errorf("fc-match %q rendering antialias|hinting|hintstyle|rgba|lcdfilter = %s, want True|False|0|5|0 (grayscale, unhinted)", tt.name, settings)
		}
	}
	if bold := fontconfig(t, home, conf, "fc-match", "-f", "%{file}", "monospace:bold"); filepath.Base(bold) != "DejaVuSansMono-Bold.ttf" {
		t.Errorf("fc-match monospace:bold = %s", bold)
	}
}

// TestSummaryDocumented: docs/testing.md quotes the line widgetd test
// prints, so the documentation says what is really pinned.
func TestSummaryDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "\n"+Summary+"\n") {
		t.Errorf("docs/testing.md does not quote fontpin.Summary:\n%s", Summary)
	}
}

// Package fontpin pins the fonts Chromium renders with for `widgetd test`:
// a small set of open-licensed fonts ships inside the widgetd binary
// (DejaVu Sans, Serif and Sans Mono, regular and bold, from Debian's
// fonts-dejavu-core; licence in fonts/LICENSE), and Install writes them with a
// private fonts.conf that lists only them, so the same widget renders the
// same pixels on any Linux machine whatever fonts it has installed.
// Chromium reads that fonts.conf when started with FONTCONFIG_FILE set to it.
package fontpin

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/internal/atomicfile"
)

//go:embed fonts/*.ttf fonts/LICENSE
var embedded embed.FS

// Summary says in one line what is pinned, for `widgetd test` to print.
const Summary = "fonts pinned: embedded DejaVu Sans, DejaVu Serif, DejaVu Sans Mono " +
	"(regular, bold; installed fonts are not used), grayscale anti-aliasing, no hinting, device scale factor 1"

// Generic families and the embedded family each resolves to.
const (
	Sans  = "DejaVu Sans"
	Serif = "DejaVu Serif"
	Mono  = "DejaVu Sans Mono"
)

// ConfName is the file name of the private fontconfig configuration.
const ConfName = "fonts.conf"

// confVersion changes whenever the fonts.conf written by Install changes
// meaning, so a folder written by an older widgetd is not reused.
const confVersion = "fontpin-1"

// alias is one family name and the embedded family it resolves to.
type alias struct{ name, family string }

// aliases maps the CSS generic families, fontconfig's own generic names
// and the names of common system font stacks to the embedded families.
// Anything not named here falls back to DejaVu Sans.
func aliases() []alias {
	var out []alias
	add := func(family string, names ...string) {
		for _, n := range names {
			out = append(out, alias{n, family})
		}
	}
	add(Sans, "sans-serif", "sans", "system-ui", "ui-sans-serif", "-apple-system", "BlinkMacSystemFont",
		"Segoe UI", "Roboto", "Ubuntu", "Cantarell", "Noto Sans", "Open Sans", "Helvetica Neue", "Helvetica",
		"Arial", "Liberation Sans", "Arimo", "Verdana", "Tahoma", "Inter", "cursive", "fantasy", "emoji", "math",
		"Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji")
	add(Serif, "serif", "ui-serif", "Times New Roman", "Times", "Liberation Serif", "Tinos", "Georgia",
		"Cambria", "Noto Serif")
	add(Mono, "monospace", "mono", "ui-monospace", "Courier New", "Courier", "Liberation Mono", "Cousine",
		"Menlo", "Monaco", "Consolas", "SFMono-Regular", "SF Mono", "Lucida Console", "Noto Sans Mono",
		"DejaVu Mono")
	return out
}

// Install writes the embedded fonts and a fonts.conf listing only them into
// a folder under cacheRoot named by their content (so it is written once and
// shared by every run and every widgetd of the same fonts), and returns the
// path of that fonts.conf: Chromium's FONTCONFIG_FILE. Files already there
// with the right content are kept; each is written atomically, the
// fonts.conf last, so a concurrent or killed run never leaves a folder that
// looks complete but is not.
func Install(cacheRoot string) (string, error) {
	names, sum, err := contents()
	if err != nil {
		return "", err
	}
	dir, err := filepath.Abs(filepath.Join(cacheRoot, "fonts-"+sum))
	if err != nil {
		return "", fmt.Errorf("pinned fonts: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("pinned fonts: %w", err)
	}
	for _, name := range names {
		data, _ := embedded.ReadFile(name)
		if err := writeIfChanged(filepath.Join(dir, path.Base(name)), data); err != nil {
			return "", fmt.Errorf("pinned fonts: %w", err)
		}
	}
	conf := filepath.Join(dir, ConfName)
	if err := writeIfChanged(conf, []byte(Conf(dir))); err != nil {
		return "", fmt.Errorf("pinned fonts: %w", err)
	}
	return conf, nil
}

// Files lists the embedded font files (base names) with their sizes in
// bytes, and the licence file, as Install writes them.
func Files() (map[string]int, error) {
	names, _, err := contents()
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, n := range names {
		data, _ := embedded.ReadFile(n)
		out[path.Base(n)] = len(data)
	}
	return out, nil
}

// contents lists the embedded files in a fixed order and hashes them, with
// confVersion, into the folder name.
func contents() (names []string, sum string, err error) {
	err = fs.WalkDir(embedded, "fonts", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("embedded fonts: %w", err)
	}
	h := sha256.New()
	h.Write([]byte(confVersion + "\n"))
	for _, n := range names { // WalkDir walks in lexical order
		data, _ := embedded.ReadFile(n)
		fmt.Fprintf(h, "%s %d\n", n, len(data))
		h.Write(data)
	}
	return names, hex.EncodeToString(h.Sum(nil))[:16], nil
}

// writeIfChanged writes data to name unless name already holds exactly it.
func writeIfChanged(name string, data []byte) error {
	old, err := os.ReadFile(name)
	if err == nil && string(old) == string(data) {
		return nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return atomicfile.Write(name, data)
}

// Conf is the private fontconfig configuration for the fonts in dir: only
// that folder (no system configuration is included, so no installed font
// can take part), every alias of aliases, DejaVu Sans as the last resort for
// any other name, and fixed rendering settings (grayscale anti-aliasing, no
// hinting, no sub-pixel order or LCD filter, no embedded bitmaps).
func Conf(dir string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- Written by widgetd (internal/fontpin): only the fonts of this folder. -->
<fontconfig>
`)
	fmt.Fprintf(&b, "  <dir>%s</dir>\n  <cachedir>%s</cachedir>\n", xmlText(dir), xmlText(filepath.Join(dir, "fc-cache")))
	for _, a := range aliases() {
		fmt.Fprintf(&b, "  <alias binding=\"same\"><family>%s</family><prefer><family>%s</family></prefer></alias>\n",
			xmlText(a.name), xmlText(a.family))
	}
	fmt.Fprintf(&b, `  <match target="pattern">
    <edit name="family" mode="append_last"><string>%s</string></edit>
  </match>
  <match target="font">
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="hinting" mode="assign"><bool>false</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
    <edit name="autohint" mode="assign"><bool>false</bool></edit>
    <edit name="rgba" mode="assign"><const>none</const></edit>
    <edit name="lcdfilter" mode="assign"><const>lcdnone</const></edit>
    <edit name="embeddedbitmap" mode="assign"><bool>false</bool></edit>
  </match>
</fontconfig>
`, Sans)
	return b.String()
}

// xmlText escapes s for an XML text node.
func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

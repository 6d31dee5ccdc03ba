package uptodate

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/widgetd/widgetd/internal/regularfile"
)

// maxExecutableSize bounds the executable BuildID hashes; a larger one
// (none is near it) leaves widgetd unidentified, so nothing is skipped.
const maxExecutableSize = 1 << 30

// buildID is BuildID, worked out once per process.
var buildID = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return identify(info, exe, maxExecutableSize)
})

// module is widgetd's module path, looked up in the build information.
const module = "github.com/widgetd/widgetd"

// BuildID names the widgetd code running, beyond its version string, so
// that a record written by other code under the same version is not
// trusted. In order: the VCS revision of a build from a clean checkout; the
// version and go.sum hash of widgetd's module when it came from a module
// proxy (go install …@v1.2.3, or a go tool dependency); the Go build ID
// the linker writes into an ELF executable (a hash of its content); else the
// SHA-256 of the executable, read once per process. "" when none can be had:
// then nothing is recorded and every build bundles.
func BuildID() string { return buildID() }

// identify is BuildID for the given build information (nil when there is
// none) and executable ("" when unknown), hashing at most limit bytes.
func identify(info *debug.BuildInfo, exe string, limit int64) string {
	if id := fromBuildInfo(info); id != "" {
		return id
	}
	if exe == "" {
		return ""
	}
	if id := goBuildID(exe, limit); id != "" {
		return "go:" + id
	}
	return hashFile(exe, limit)
}

// fromBuildInfo identifies widgetd by a clean checkout's revision or by its
// module's checksum, "" when info has neither.
func fromBuildInfo(info *debug.BuildInfo) string {
	if info == nil {
		return ""
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision != "" && modified == "false" {
		return "vcs:" + revision
	}
	for _, m := range append([]*debug.Module{&info.Main}, info.Deps...) {
		if m != nil && m.Path == module && m.Replace == nil && m.Sum != "" {
			return "mod:" + m.Version + " " + m.Sum
		}
	}
	return ""
}

// goBuildID reads the Go build ID note of an ELF executable ("" for any
// other file, or one built without an ID).
func goBuildID(exe string, limit int64) string {
	file, err := regularfile.Open(exe, limit)
	if err != nil {
		return ""
	}
	defer file.Close()
	f, err := elf.NewFile(file)
	if err != nil {
		return ""
	}
	sec := f.Section(".note.go.buildid")
	if sec == nil || sec.Size > 4096 {
		return ""
	}
	note, err := sec.Data()
	if err != nil || len(note) < 16 {
		return ""
	}
	// An ELF note: name size, description size, type 4, "Go\0\0", the ID.
	order := f.ByteOrder
	nameSize, descSize := order.Uint32(note), order.Uint32(note[4:])
	if nameSize != 4 || order.Uint32(note[8:]) != 4 || !bytes.Equal(note[12:16], []byte("Go\x00\x00")) || int(descSize) > len(note)-16 || descSize == 0 {
		return ""
	}
	return string(note[16 : 16+descSize])
}

// hashFile is "exe:" and the SHA-256 of the file at exe, "" when it cannot
// be read or holds more than limit bytes.
func hashFile(exe string, limit int64) string {
	f, err := regularfile.Open(exe, limit)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, limit+1))
	if err != nil || n > limit {
		return ""
	}
	return "exe:" + hex.EncodeToString(h.Sum(nil))
}

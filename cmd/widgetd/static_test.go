package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestStaticBuild: CGO_ENABLED=0 gives a single static widgetd binary (no
// ELF interpreter, no dynamic section), as the README documents, and it runs.
func TestStaticBuild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks an ELF binary")
	}
	bin := filepath.Join(t.TempDir(), "widgetd")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	assertStaticELF(t, bin)
	if out, err := exec.Command(bin, "version").CombinedOutput(); err != nil {
		t.Errorf("static binary: %v\n%s", err, out)
	}
}

// assertStaticELF fails unless bin is a statically linked ELF executable:
// no ELF interpreter (the dynamic loader) and no dynamic section.
func assertStaticELF(t *testing.T, bin string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("%s has a %v program header: it is dynamically linked", bin, p.Type)
		}
	}
}

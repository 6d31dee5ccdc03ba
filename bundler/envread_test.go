package bundler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestEnvFileReadErrors: a .env file that is not a regular file, or is over
// the config size limit, fails the build naming the file and what is wrong;
// nothing is bundled from it.
func TestEnvFileReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, p string)
		want []string
	}{
		{"a FIFO", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"read ", ".env.local: ", "is a named pipe (FIFO), not a regular file", "replace it with a regular file"}},
		{"over the limit", func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte("VITE_A="+strings.Repeat("x", maxConfigSize)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"read ", ".env.local: ", "this file is read only up to 1.0 MiB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeProject(t, map[string]string{"widgets/w/widget.json": `{}`, "widgets/w/index.ts": `document.body.append(import.meta.env.VITE_A ?? "")`, ".env": "VITE_A=1\n"})
			tc.make(t, filepath.Join(root, ".env.local"))
			_, err := Build(context.Background(), Options{Root: root, NoCache: true, NoCompress: true})
			if err == nil {
				t.Fatal("build succeeded")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
		})
	}
}

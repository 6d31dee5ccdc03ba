package check

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/internal/namespace"
)

// entryPrefix starts the metafile's name of a widget's virtual entry
// (namespace.Entry + ":" + the widget's name).
const entryPrefix = namespace.Entry + ":"

// metafileInputs returns the on-disk input files (relative to the metafile's
// working directory) that contribute bytes to widget name's JS output.
func metafileInputs(metafile, name string) ([]string, error) {
	var m struct {
		Outputs map[string]struct {
			EntryPoint string `json:"entryPoint"`
			Inputs     map[string]struct {
				BytesInOutput int `json:"bytesInOutput"`
			} `json:"inputs"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(metafile), &m); err != nil {
		return nil, fmt.Errorf("read esbuild metafile: %w", err)
	}
	var out []string
	for _, o := range m.Outputs {
		if o.EntryPoint != entryPrefix+name && o.EntryPoint != name {
			continue
		}
		for in, v := range o.Inputs {
			if v.BytesInOutput > 0 && !strings.Contains(in, ":") {
				out = append(out, in)
			}
		}
	}
	return out, nil
}

// readInput reads a metafile input path below root.
func readInput(root, in string) ([]byte, error) {
	p := filepath.Join(root, filepath.FromSlash(in))
	if rel, err := filepath.Rel(root, p); err != nil || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("input %q outside %s", in, root)
	}
	return os.ReadFile(p)
}

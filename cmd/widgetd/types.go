package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/internal/atomicfile"
)

// typesFile is the name `widgetd types` writes into the widgets folder.
const typesFile = "widgetd.d.ts"

// runTypes writes the bridge's TypeScript declarations into a widget project,
// so editors and tsc know `import … from "widgetd"` and "widgetd/react".
func runTypes(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("types", "",
		"Writes the declarations of the \"widgetd\" and \"widgetd/react\" modules (the\n"+
			"client bridge every widget gets) so editors and tsc complete and check them.\n", stdout, stderr)
	widgets := fs.String("widgets", "widgets", "widgets `dir` to write "+typesFile+" into")
	out := fs.String("out", "", "`file` to write instead (- for standard output)")
	check := fs.Bool("check", false, "write nothing; exit 1 if the file is missing or differs (for CI)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	dts, err := bridge.DTS()
	if err != nil {
		fmt.Fprintf(stderr, "widgetd types: %v\n", err)
		return exitError
	}
	if *out == "-" {
		stdout.Write(dts)
		return exitOK
	}
	path := *out
	if path == "" {
		path = filepath.Join(*widgets, typesFile)
	}
	if *check {
		have, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(have, dts) {
			fmt.Fprintf(stderr, "widgetd types: %s is missing or out of date; run widgetd types\n", path)
			return exitError
		}
		return exitOK
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "widgetd types: folder %s does not exist\n", filepath.Dir(path))
		return exitError
	}
	if err := atomicfile.Write(path, dts); err != nil {
		fmt.Fprintf(stderr, "widgetd types: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return exitOK
}

// Command genhost rebuilds devserver/static/hostapp.js from devserver/hostapp
// (run by `go generate ./devserver`; needs `npm ci` in devserver/hostapp).
package main

import (
	"fmt"
	"os"

	"github.com/widgetd/widgetd/devserver/internal/hostbuild"
)

func main() {
	// go generate runs in the package folder, devserver/.
	js, err := hostbuild.Build("hostapp")
	if err != nil {
		fmt.Fprintln(os.Stderr, "genhost:", err)
		os.Exit(1)
	}
	if err := os.WriteFile("static/hostapp.js", js, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genhost:", err)
		os.Exit(1)
	}
	fmt.Printf("genhost: wrote devserver/static/hostapp.js (%d bytes)\n", len(js))
}

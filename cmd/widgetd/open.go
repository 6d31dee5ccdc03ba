package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"runtime"
)

// browserOpener is the program that opens a URL in the user's browser on
// goos, and the arguments before the URL.
func browserOpener(goos string) (name string, args []string) {
	switch goos {
	case "darwin":
		return "open", nil
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler"}
	default: // Linux, the BSDs: the freedesktop opener
		return "xdg-open", nil
	}
}

// openBrowser opens url in the user's browser for `widgetd dev --open`.
// It never fails the server: when no opener is on PATH, or it cannot be
// started, it says so and the URL printed above is still there to click.
// The opener runs on its own; it is reaped in the background, and a failure
// is reported unless the server is stopping (ctx done).
func openBrowser(ctx context.Context, url string, log io.Writer) {
	name, args := browserOpener(runtime.GOOS)
	path, err := exec.LookPath(name)
	if err != nil {
		fmt.Fprintf(log, "widgetd dev: --open: %s is not on PATH, so no browser was opened; open %s yourself\n", name, url)
		return
	}
	// Not CommandContext: when no browser runs yet, the opener may become
	// the browser, which must outlive `widgetd dev`.
	cmd := exec.Command(path, append(args, url)...)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(log, "widgetd dev: --open: %s: %v; open %s yourself\n", path, err, url)
		return
	}
	go func() {
		if err := cmd.Wait(); err != nil && ctx.Err() == nil {
			fmt.Fprintf(log, "widgetd dev: --open: %s %s: %v\n", name, url, err)
		}
	}()
}

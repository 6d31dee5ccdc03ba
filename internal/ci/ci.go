// Package ci answers one question for tests: do they run under continuous
// integration? There every daemon and tool a test needs (nginx, Varnish,
// Pebble, versitygw, the package managers) is installed by .ci/run, so a
// test that finds one missing must fail rather than skip: a skip there would
// pass silently. Every such test asks Running, so they all agree on what
// counts as CI.
package ci

import (
	"os"
	"strconv"
)

// Running reports whether the CI environment variable says this is CI: set
// to any value but a false one ("0", "false", "f", "FALSE", ... as
// strconv.ParseBool reads them). CI providers set CI=true, some CI=1, and
// .ci/run sets CI=true unless CI is already set.
func Running() bool {
	v := os.Getenv("CI")
	if v == "" {
		return false
	}
	on, err := strconv.ParseBool(v)
	return err != nil || on
}

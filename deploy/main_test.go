package deploy

import (
	"os"
	"testing"

	"github.com/widgetd/widgetd/internal/browsertest"
)

// shared is the browser of the CDN test, launched on first use.
var shared browsertest.Shared

// childEnv makes the test binary run one deploy (runChildDeploy) instead of
// the tests, so a test can kill a real deploy process; otherwise the tests
// run and the shared browser is closed after them.
const childEnv = "WIDGETD_TEST_DEPLOY_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(runChildDeploy())
	}
	os.Exit(shared.Run(m))
}

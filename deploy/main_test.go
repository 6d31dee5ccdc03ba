package deploy

import (
	"testing"

	"github.com/widgetd/widgetd/internal/browsertest"
)

// shared is the browser of the CDN test, launched on first use.
var shared browsertest.Shared

func runTests(m *testing.M) int { return shared.Run(m) }

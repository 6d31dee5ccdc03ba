package widgettest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/widgetd/widgetd/widgettest"
)

// A Go MCP server checks its widgets in its own `go test`: every widget ×
// fixture × host becomes a subtest (TestWidgets/weather/default@chatgpt)
// that fails on an error, a CSP violation, an unmet expectation or a
// screenshot change. Put this in the server's widgets_test.go, with Root the
// folder that holds widgets/.
func ExampleRun() {
	testWidgets := func(t *testing.T) {
		widgettest.Run(t, widgettest.Options{Root: "."})
	}
	_ = testWidgets // func TestWidgets(t *testing.T) { … }
}

// RunReport is the same run without a *testing.T, for a command or a CI
// step of your own; `widgetd test` is built on it. This project's one
// widget renders its one fixture under the two default hosts.
func ExampleRunReport() {
	rep, err := widgettest.RunReport(context.Background(), widgettest.Options{
		Root:          "testdata/example",
		NoScreenshots: true, // the example commits no baselines
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range rep.Cases {
		fmt.Println(c.Name(), c.Passed, c.Failures)
	}
	fmt.Printf("%d passed, %d failed\n", rep.Passed, rep.Failed)
	// Output:
	// greeting/default@mcp-apps true []
	// greeting/default@chatgpt true []
	// 2 passed, 0 failed
}

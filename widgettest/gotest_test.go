package widgettest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestRunSubtests: Run on one of the repository's example widgets, against
// its committed baselines, as a Go MCP server's test would call it: every
// fixture × host is a subtest that passes, and the report holds each case.
func TestRunSubtests(t *testing.T) {
	rep := Run(t, Options{Root: "..", Widgets: []string{"hello"}})
	var names []string
	for _, c := range rep.Cases {
		names = append(names, c.Name())
		if !c.Passed || c.BaselineWritten {
			t.Errorf("%s: passed %v, baseline written %v: %v", c.Name(), c.Passed, c.BaselineWritten, c.Failures)
		}
	}
	want := "hello/default@mcp-apps,hello/default@chatgpt,hello/dark@mcp-apps,hello/dark@chatgpt"
	if got := strings.Join(names, ","); got != want || rep.Passed != 4 || rep.Failed != 0 {
		t.Errorf("cases %s (passed %d, failed %d), want %s", got, rep.Passed, rep.Failed, want)
	}
}

// runChildEnv names the project the child test process renders.
const runChildEnv = "WIDGETTEST_RUN_CHILD_ROOT"

// TestRunFailsSubtest: a case that fails fails its own subtest (named
// widget/fixture@host, with the failure as its error) and the test, while
// the other widget's subtests pass. Run needs a real *testing.T, so the
// test binary runs itself on a project with one failing widget and the
// go test output is checked.
func TestRunFailsSubtest(t *testing.T) {
	if root := os.Getenv(runChildEnv); root != "" {
		Run(t, Options{Root: root, NoScreenshots: true})
		return
	}
	root, _ := project(t, map[string]string{
		"good/widget.json": `{}`,
		"good/index.ts": `import { widget } from "widgetd";
widget.onToolResult(() => { document.body.textContent = "apple"; });`,
		"good/fixtures/default.json": `{"toolResult":{"structuredContent":{}},"expect":{"text":["apple"]}}`,
		"unmet/widget.json":          `{}`,
		"unmet/index.ts": `import { widget } from "widgetd";
widget.onToolResult(() => { document.body.textContent = "pear"; });`,
		"unmet/fixtures/default.json": `{"toolResult":{"structuredContent":{}},"expect":{"text":["apple"]}}`,
	})
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunFailsSubtest$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), runChildEnv+"="+root)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("child go test: %v, want a failing exit\n%s", err, out)
	}
	for _, want := range []string{
		"--- FAIL: TestRunFailsSubtest/unmet/default@mcp-apps",
		"--- FAIL: TestRunFailsSubtest/unmet/default@chatgpt",
		`expected text "apple"; the widget shows "pear"`,
		"--- PASS: TestRunFailsSubtest/good/default@mcp-apps",
		"--- PASS: TestRunFailsSubtest/good/default@chatgpt",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
}

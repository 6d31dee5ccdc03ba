package widgettest

import (
	"testing"
	"time"
)

// Run renders the project's widgets under t, as subtests: one per widget,
// and in it one per fixture and host (TestWidgets/weather/default@chatgpt),
// so `go test -run` selects cases and a failure names its case. A case
// fails its subtest on an uncaught error in any frame, a CSP violation, a
// missing handshake, an unmet expectation of its fixture or a screenshot
// that differs from its committed baseline; a widget that does not build
// fails a "build@all" subtest; a baseline no case renders fails t. What
// stops every case from running (no Chromium, the project does not build)
// fails t at once.
//
// Cases of one widget run in parallel, at most opts.Parallel at a time.
// Run returns the report once every subtest has ended, for checks of
// your own; most tests ignore it. It is the Go test form of RunReport, in
// the spirit of httptest and fstest: a Go MCP server's own `go test`
// checks its widgets with it.
func Run(t *testing.T, opts Options) *Report {
	t.Helper()
	rep, err := runSubtests(t, opts)
	if err != nil {
		t.Fatalf("widgettest: %v", err)
	}
	return rep
}

// runSubtests is Run without the final t.Fatal.
func runSubtests(t *testing.T, opts Options) (*Report, error) {
	start := time.Now()
	ctx := t.Context()
	s, err := startSession(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer s.close()
	t.Log(pinnedSummary())
	rep := &Report{Chrome: s.chrome, Pinned: pinnedSummary()}
	cases := make([]Case, len(s.broken)+len(s.plans)) // zero: not run (go test -run)
	copy(cases, s.broken)
	for _, c := range s.broken {
		t.Run(c.Widget, func(t *testing.T) {
			t.Run(c.Fixture+"@"+c.Host, func(t *testing.T) { reportCase(t, c) })
		})
	}
	sem := make(chan struct{}, s.opts.Parallel)
	for _, widget := range widgetsOf(s.plans) {
		t.Run(widget, func(t *testing.T) {
			for i, p := range s.plans {
				if p.widget.Name != widget {
					continue
				}
				t.Run(p.fixtureName()+"@"+p.host, func(t *testing.T) {
					t.Parallel()
					sem <- struct{}{}
					defer func() { <-sem }()
					cases[len(s.broken)+i] = s.run(ctx, p)
					reportCase(t, cases[len(s.broken)+i])
				})
			}
		})
	}
	for _, c := range cases {
		switch {
		case c.Widget == "":
		case c.Passed:
			rep.Passed++
		default:
			rep.Failed++
		}
		if c.Widget != "" {
			rep.Cases = append(rep.Cases, c)
		}
	}
	rep.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	rep.Stale = s.stale()
	for _, f := range rep.Stale {
		if s.opts.Update {
			t.Logf("removed stale baseline %s", f)
		} else {
			t.Errorf("stale baseline %s: no fixture and host renders it; delete it or set Options.Update", f)
		}
	}
	return rep, ctx.Err()
}

// reportCase turns a case's outcome into its subtest's: one error per
// failure, a log line for a baseline written.
func reportCase(t *testing.T, c Case) {
	t.Helper()
	for _, f := range c.Failures {
		t.Error(f)
	}
	if c.BaselineWritten {
		t.Logf("baseline written: %s", c.Baseline)
	}
}

// widgetsOf lists the widgets of plans, in plan order, once each.
func widgetsOf(plans []plan) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range plans {
		if !seen[p.widget.Name] {
			seen[p.widget.Name] = true
			out = append(out, p.widget.Name)
		}
	}
	return out
}

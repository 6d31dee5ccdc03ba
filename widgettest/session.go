package widgettest

import (
	"context"

	"github.com/widgetd/widgetd/devserver"
)

// session is one prepared run, shared by RunReport and Run: the dev server
// with the project built, headless Chromium, the planned cases and a failed
// case for each widget that does not build.
type session struct {
	opts    Options
	chrome  string
	srv     *devserver.Server
	stopDev func()
	browser *browser
	plans   []plan
	broken  []Case
}

// startSession fills opts' defaults, finds the browser, builds the project
// on a dev server and launches Chromium; close releases both.
func startSession(ctx context.Context, opts Options) (s *session, err error) {
	s = &session{opts: withDefaults(opts)}
	if s.opts.Hosts, err = canonicalHosts(s.opts.Hosts); err != nil {
		return nil, err
	}
	if s.chrome, err = FindChrome(s.opts.Chrome); err != nil {
		return nil, err
	}
	if s.srv, s.stopDev, s.broken, err = startDevSkippingBroken(ctx, s.opts); err != nil {
		return nil, err
	}
	if s.plans, err = planCases(s.srv, s.opts); err != nil {
		s.stopDev()
		return nil, err
	}
	if s.browser, err = launch(ctx, s.chrome); err != nil {
		s.stopDev()
		return nil, err
	}
	return s, nil
}

// run renders one planned case and checks it.
func (s *session) run(ctx context.Context, p plan) Case {
	return runCase(ctx, s.browser, s.srv.PreviewURL(), p, s.opts)
}

// stale lists (and with Update removes) the baselines no planned case
// uses; only a run over every widget and the default hosts, with
// screenshots on, looks for them.
func (s *session) stale() []string {
	o := s.opts
	if len(o.Widgets) > 0 || o.NoScreenshots || !containsAll(o.Hosts, DefaultHosts()) {
		return nil
	}
	return staleBaselines(s.plans, o.Hosts, o.Update)
}

// close stops the browser and the dev server.
func (s *session) close() {
	s.browser.close()
	s.stopDev()
}

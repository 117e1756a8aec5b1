package main

import (
	"fmt"
	"os"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/world/browserenv"
)

// newEnvironment returns the browser environment of a bdd run: every test
// case gets a lazily created context and page (this.page...), sharing one
// browser that is launched when a step first needs it.
func newEnvironment(cfg *config.Config) (runner.Environment, error) {
	// Preparing the next test case's context, and closing the last one,
	// while a test case runs did not pay off when measured on 2 busy
	// cores: Chromium is the bottleneck, and the overlapped work slowed
	// the running test case more than it saved (30 scenarios: 45 s
	// overlapped, 33 s serial, floor 38 s). FERRIDRIVER_OVERLAP=1 turns
	// both on, to measure elsewhere.
	overlap := os.Getenv("FERRIDRIVER_OVERLAP") == "1"
	env, err := browserenv.New(cfg.Browser, browserenv.Options{Logf: browserLog, Debugf: browserDebug(), Prewarm: overlap, BackgroundClose: overlap})
	if err != nil {
		return nil, fmt.Errorf("[browser]: %w", err)
	}
	return env, nil
}

// browserLog reports what a user should know about the browser (installs,
// crashes, relaunches) on stderr.
func browserLog(format string, args ...any) {
	fmt.Fprintln(os.Stderr, "ferridriver: "+fmt.Sprintf(format, args...))
}

// browserDebug is the browser's Debugf: routine start-up timings, on
// stderr only with FERRIDRIVER_DEBUG set.
func browserDebug() func(format string, args ...any) {
	if os.Getenv("FERRIDRIVER_DEBUG") == "" {
		return nil
	}
	return browserLog
}

// newScriptBrowser returns the browser of the script and mcp hosts (the
// `page` and `context` globals, tool handlers' ctx.page): one page for the
// session, launched on first use. Install it with
// jsbridge.SetBrowserProvider(vm, b) (run) or as mcp Session().Browser,
// and Close it when the session ends.
func newScriptBrowser(cfg *config.Config) (*browserenv.ScriptBrowser, error) {
	b, err := browserenv.NewScriptBrowser(cfg.Browser, browserenv.Options{Logf: browserLog, Debugf: browserDebug()})
	if err != nil {
		return nil, fmt.Errorf("[browser]: %w", err)
	}
	return b, nil
}

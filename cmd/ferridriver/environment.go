package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/world/browserenv"
	"github.com/ferridriver/ferridriver/world/jsapi"
)

// newEnvironment returns the browser environment of a bdd run with the
// given number of workers: every test case gets a lazily created context
// and page (this.page...), sharing one browser that is launched when a
// step first needs it.
func newEnvironment(cfg *config.Config, workers int) (runner.Environment, error) {
	overlap, err := overlapBrowserWork(max(workers, 1), runtime.NumCPU(), os.Getenv("FERRIDRIVER_OVERLAP"))
	if err != nil {
		return nil, err
	}
	t := cfg.Test
	env, err := browserenv.New(cfg.Browser, browserenv.Options{Logf: browserLog, Debugf: browserDebug(), Overlap: overlap,
		Snapshots: jsapi.SnapshotSettings{Update: t.UpdateSnapshots, Dir: t.SnapshotDir, PathTemplate: t.SnapshotPathTemplate, TestDir: cfg.Dir}})
	if err != nil {
		return nil, fmt.Errorf("[browser]: %w", err)
	}
	return env, nil
}

// overlapBrowserWork decides whether each worker prepares its next test
// case's context and page, and closes the last one, while a test case
// runs. That work needs a core of its own: measured on 2 cores (100
// scenarios, docs/benchmarks.md), it made 1 worker 5-15% faster, and 2
// workers, which already keep Chromium busy on both cores, between 4%
// slower and 4% faster, for a renderer per worker of memory. So it is on
// while there are fewer workers than CPUs; FERRIDRIVER_OVERLAP=1 or 0
// overrides that.
func overlapBrowserWork(workers, cpus int, setting string) (bool, error) {
	switch setting {
	case "":
		return workers < cpus, nil
	case "1":
		return true, nil
	case "0":
		return false, nil
	}
	return false, fmt.Errorf("FERRIDRIVER_OVERLAP=%q: want 1 (on) or 0 (off)", setting)
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

// newScriptBrowser returns the browser of the script host (the `page` and
// `context` globals, tool handlers' ctx.page): one page for the run,
// launched on first use. Install it with jsbridge.SetBrowserProvider(vm, b)
// and Close it when the run ends.
func newScriptBrowser(cfg *config.Config) (*browserenv.ScriptBrowser, error) {
	b, err := browserenv.NewScriptBrowser(cfg.Browser, browserenv.Options{Logf: browserLog, Debugf: browserDebug()})
	if err != nil {
		return nil, fmt.Errorf("[browser]: %w", err)
	}
	return b, nil
}

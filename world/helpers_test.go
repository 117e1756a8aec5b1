//go:build linux

package world

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/demoapp"
)

// demo serves the demo app for the duration of the test or benchmark.
func demo(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	url, err := demoapp.Serve(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// newLauncher builds a Launcher that is always closed at the end of the
// test, and checks that it left no browser process behind.
func newLauncher(t *testing.T, cfg Config, opts Options) *Launcher {
	t.Helper()
	if cfg.OutputDir == "" {
		cfg.OutputDir = t.TempDir()
	}
	opts.Logf, opts.Debugf = t.Logf, t.Logf
	l, err := NewLauncher(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("Launcher.Close: %v", err)
		}
		if pids := l.ProcessIDs(); len(pids) > 0 {
			t.Errorf("browser processes left after Close: %v", pids)
		}
	})
	return l
}

// processesRunning lists live processes whose command line contains all of
// the given substrings.
func processesRunning(subs ...string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || processGone(pid) {
			continue
		}
		b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		cmd := strings.ReplaceAll(string(b), "\x00", " ")
		ok := cmd != ""
		for _, s := range subs {
			ok = ok && strings.Contains(cmd, s)
		}
		if ok {
			out = append(out, pid)
		}
	}
	return out
}

func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

package main

import (
	"context"
	"testing"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/world/install"
)

// TestFloorRuns runs a few scenarios both ways, at 1 and 2 workers: the
// benchmark's lower bounds must do the scenario's work and close every
// context they made (run fails otherwise).
func TestFloorRuns(t *testing.T) {
	if _, err := install.FindDriver(""); err != nil {
		t.Skipf("no Playwright driver (make browser installs it): %v", err)
	}
	b, err := install.FindBrowser(install.BrowserQuery{Headless: true})
	if err != nil {
		t.Skipf("no browser (make browser installs it): %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, err := demoapp.Serve(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		workers int
		overlap bool
	}{
		{"serial, 1 worker", 1, false},
		{"overlap, 1 worker", 1, true},
		{"overlap, 2 workers", 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := run(base, b.Path, 5, tc.workers, tc.overlap); err != nil {
				t.Fatal(err)
			}
		})
	}
}

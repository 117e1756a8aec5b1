package main

import (
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world/install"
)

// TestFloorRuns runs a few scenarios both ways, at 1 and 2 workers: the
// benchmark's lower bounds must do the scenario's work and close every
// context they made (run fails otherwise).
func TestFloorRuns(t *testing.T) {
	testenv.NeedBrowser(t)
	b, err := install.FindBrowser(install.BrowserQuery{Headless: true})
	if err != nil {
		t.Fatalf("no browser (make browser installs it): %v", err)
	}
	base := testenv.DemoApp(t)
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

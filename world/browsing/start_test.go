package browsing

import (
	"context"
	"testing"
	"time"
)

// Start launches the browser before any session exists: the launcher has
// started it and Starting ends with no call made; a second Start does
// nothing; the first session's call then finds the browser up, without having
// asked for it.
func TestStartLaunchesBeforeTheFirstCall(t *testing.T) {
	svc := newService(t)
	if svc.Starting() != nil || svc.l.Started() {
		t.Fatal("a new service has started something")
	}
	svc.Start()
	ch := svc.Starting()
	if ch == nil {
		t.Fatal("Start began no start-up")
	}
	svc.Start() // no second launch
	select {
	case <-ch:
	case <-time.After(2 * time.Minute):
		t.Fatal("the start-up did not end")
	}
	if svc.Starting() != nil || svc.LaunchTook() <= 0 {
		t.Fatalf("after the start-up: Starting %v, LaunchTook %v", svc.Starting(), svc.LaunchTook())
	}
	if _, ready := svc.l.Startup(0, true); !ready || !svc.l.Started() {
		t.Fatal("the browser is not up after the start-up")
	}
	ss, _ := svc.Session("c", "")
	ctx := context.Background()
	if err := ss.Do(ctx, func() error { _, err := ss.Navigate(ctx, "/login", SnapNone); return err }); err != nil {
		t.Fatal(err)
	}
}

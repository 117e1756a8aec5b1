package browsing

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world"
)

func newService(t *testing.T) *Service {
	t.Helper()
	testenv.NeedBrowser(t)
	l, err := world.NewLauncher(world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir()}, world.Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	svc := NewService(l)
	t.Cleanup(func() {
		svc.Close()
		l.Close()
	})
	return svc
}

// TestLeaseAndContextLimit: code holding a session's turn (Acquire) has
// the page the browser tools drive and keeps them waiting; the service
// refuses a browser context past its limit and counts one again once a
// client's sessions are closed.
func TestLeaseAndContextLimit(t *testing.T) {
	svc := newService(t)
	svc.SetContextLimit(1, "close one")
	ctx := context.Background()
	a, _ := svc.Session("client-a", "")
	release, err := a.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	page, err := a.CurrentPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := page.Goto("/login"); err != nil {
		t.Fatal(err)
	}
	// A browser tool on the same session waits for the lease.
	var navigated atomic.Bool
	done := make(chan error, 1)
	go func() {
		done <- a.Do(ctx, func() error {
			res, err := a.Snapshot(ctx, "", 0)
			if err == nil && res.URL == "/login" {
				navigated.Store(true)
			}
			return err
		})
	}()
	time.Sleep(200 * time.Millisecond)
	if navigated.Load() {
		t.Fatal("a browser tool ran while code held the session's turn")
	}
	release()
	release() // a second release is a no-op
	if err := <-done; err != nil || !navigated.Load() {
		t.Fatalf("the browser tool after the lease: %v (saw the code's page: %v)", err, navigated.Load())
	}

	if n := svc.OpenContexts(); n != 1 {
		t.Fatalf("open contexts: %d, want 1", n)
	}
	b, _ := svc.Session("client-b", "")
	err = b.Do(ctx, func() error { _, err := b.CurrentPage(ctx); return err })
	var le *ContextLimitError
	if !errors.As(err, &le) || le.Max != 1 || svc.AllowContext() == nil {
		t.Fatalf("past the limit: %v", err)
	}
	svc.CloseClient("client-a")
	if err := b.Do(ctx, func() error { _, err := b.CurrentPage(ctx); return err }); err != nil {
		t.Fatalf("after client a's sessions closed: %v", err)
	}
	// Code that closes the session's context: the next call opens another.
	if err := b.Do(ctx, func() error {
		c, err := b.BrowserContext(ctx)
		if err != nil {
			return err
		}
		return c.Close()
	}); err != nil {
		t.Fatal(err)
	}
	if err := b.Do(ctx, func() error { _, err := b.Navigate(ctx, "/login", SnapNone); return err }); err != nil {
		t.Fatalf("after its context was closed by code: %v", err)
	}
	if n := svc.OpenContexts(); n != 1 {
		t.Fatalf("open contexts: %d, want 1", n)
	}
}

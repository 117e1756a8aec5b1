package jsapi

import (
	"errors"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// racyFrame is a Frame whose WaitForLoadState has playwright-go's race
// every time: it never sees a "loadstate" event emitted once it was called,
// and fails at its timeout.
type racyFrame struct {
	playwright.Frame
	playwright.EventEmitter
	called chan struct{}
}

func (f *racyFrame) WaitForLoadState(opt ...playwright.FrameWaitForLoadStateOptions) error {
	close(f.called)
	time.Sleep(2 * time.Second)
	return errors.New("Timeout 2000ms exceeded.")
}

func TestWaitForLoadStateCatchesTheMissedEvent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		state *playwright.LoadState
		emit  []string
	}{
		{"load, by default", nil, []string{"domcontentloaded", "load"}},
		{"domcontentloaded", playwright.LoadStateDomcontentloaded, []string{"domcontentloaded"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &racyFrame{EventEmitter: playwright.NewEventEmitter(), called: make(chan struct{})}
			go func() {
				<-f.called
				for _, s := range tc.emit {
					f.Emit("loadstate", s)
				}
			}()
			start := time.Now()
			if err := waitForLoadState(f, playwright.FrameWaitForLoadStateOptions{State: tc.state}); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > time.Second {
				t.Errorf("took %v: the event was missed", took)
			}
			if n := f.ListenerCount("loadstate"); n != 0 {
				t.Errorf("%d loadstate listeners left", n)
			}
		})
	}

	// Another state does not end the wait: the frame's own answer does.
	f := &racyFrame{EventEmitter: playwright.NewEventEmitter(), called: make(chan struct{})}
	go func() { <-f.called; f.Emit("loadstate", "domcontentloaded") }()
	if err := waitForLoadState(f, playwright.FrameWaitForLoadStateOptions{}); err == nil {
		t.Error("domcontentloaded ended a wait for load")
	}
}

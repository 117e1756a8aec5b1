package jsapi

import (
	"sync"

	"github.com/playwright-community/playwright-go"
)

// waitForLoadState is f.WaitForLoadState without a race of playwright-go
// v0.5200.1, which checks the frame's load states and only then registers
// for the "loadstate" event: a state reached in between is missed, and the
// wait runs into its timeout (seen once in a dozen runs of the example
// suite, on a popup's load). A listener registered before the check
// catches that event.
func waitForLoadState(f playwright.Frame, opt playwright.FrameWaitForLoadStateOptions) error {
	em, ok := f.(playwright.EventEmitter)
	if !ok {
		return f.WaitForLoadState(opt)
	}
	want := *playwright.LoadStateLoad
	if opt.State != nil {
		want = *opt.State
	}
	reached := make(chan struct{})
	var once sync.Once
	onState := func(state string) {
		if playwright.LoadState(state) == want {
			once.Do(func() { close(reached) })
		}
	}
	em.On("loadstate", onState)
	defer em.RemoveListener("loadstate", onState)
	done := make(chan error, 1)
	go func() { done <- f.WaitForLoadState(opt) }()
	select {
	case err := <-done:
		return err
	case <-reached:
		// playwright-go's own wait may have missed it; it ends by itself
		// at its timeout.
		return nil
	}
}

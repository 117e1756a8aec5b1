package jsapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestFramesEmitLoadStates: page.waitForLoadState relies on playwright-go's
// frames being event emitters of "loadstate" (jsapi's waitForLoadState,
// which works around a race of playwright-go's own wait). If an upgrade
// changes that, it would silently fall back to the racy wait.
func TestFramesEmitLoadStates(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := e.s.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	em, ok := p.MainFrame().(playwright.EventEmitter)
	if !ok {
		t.Fatalf("%T is not a playwright.EventEmitter", p.MainFrame())
	}
	states := make(chan string, 8)
	em.On("loadstate", func(state string) { states <- state })
	if _, err := p.Goto(e.url + "/todo.html"); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case s := <-states:
			if s == "load" {
				return
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no loadstate event for load")
		}
	}
}

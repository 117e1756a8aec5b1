package browsing

import (
	"context"
	"fmt"

	"github.com/playwright-community/playwright-go"
)

// The session as code sees it: scripts, extension tools and Playwright
// code run by an agent (browser_run_code_unsafe) use the session's own
// page and context, so that what the browser tools did is what the code
// sees, and the other way round. Such code holds the session's turn for
// as long as it may touch the page (Acquire), the way one browser tool
// call does.

// Acquire takes the session's turn until release is called: the holder
// may then call the methods documented as "under turn" (CurrentPage,
// BrowserContext, PageState, RecordCode...) across many steps of its own.
// ctx ends the wait for the turn.
func (ss *Session) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case ss.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	released := false
	return func() {
		if !released {
			released = true
			<-ss.turn
		}
	}, nil
}

// CurrentPage is the session's current tab, the context and first page
// created when needed (launching the browser on first use). While a
// dialog is open it is an error that says to handle it first: every call
// on the page would wait for it. Under turn.
func (ss *Session) CurrentPage(ctx context.Context) (playwright.Page, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	return t.page, nil
}

// BrowserContext is the session's browser context, created when needed.
// Under turn.
func (ss *Session) BrowserContext(ctx context.Context) (playwright.BrowserContext, error) {
	if _, err := ss.ensure(ctx); err != nil {
		return nil, err
	}
	return ss.bctx, nil
}

// Explain rewrites an error of the session's browser into what happened
// (a crashed browser is named as such). Safe from any goroutine.
func (ss *Session) Explain(err error) error {
	ss.logMu.Lock()
	ws := ss.liveWS
	ss.logMu.Unlock()
	if ws == nil || err == nil {
		return err
	}
	return ws.Explain(err)
}

// ContextLimitError is the refusal of a browser context past the
// service's limit (see SetContextLimit).
type ContextLimitError struct {
	Max  int
	Hint string
}

func (e *ContextLimitError) Error() string {
	msg := fmt.Sprintf("the server already has %d browser contexts open, its limit", e.Max)
	if e.Hint != "" {
		msg += ": " + e.Hint
	}
	return msg
}

// SetContextLimit caps the browser contexts open at once across every
// client: the sessions' own and those that code creates
// (browser.newContext(), see AllowContext and TrackContext). max <= 0
// means no limit. hint ends the error at the cap (what the user can do).
func (s *Service) SetContextLimit(max int, hint string) {
	s.mu.Lock()
	s.maxContexts, s.limitHint = max, hint
	s.mu.Unlock()
}

// reserveContext counts one more open context, or refuses it at the cap.
func (s *Service) reserveContext() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.maxContexts > 0 && s.contexts >= s.maxContexts {
		return &ContextLimitError{Max: s.maxContexts, Hint: s.limitHint}
	}
	s.contexts++
	return nil
}

func (s *Service) releaseContext() {
	s.mu.Lock()
	if s.contexts > 0 {
		s.contexts--
	}
	s.mu.Unlock()
}

// OpenContexts is the number of browser contexts open (sessions' and
// tracked ones).
func (s *Service) OpenContexts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.contexts
}

// AllowContext says whether code may create one more browser context
// (nil), or the *ContextLimitError that refuses it.
func (s *Service) AllowContext() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.maxContexts > 0 && s.contexts >= s.maxContexts {
		return &ContextLimitError{Max: s.maxContexts, Hint: s.limitHint}
	}
	return nil
}

// TrackContext counts a context that code created until it closes.
func (s *Service) TrackContext(c playwright.BrowserContext) {
	s.mu.Lock()
	s.contexts++
	s.mu.Unlock()
	c.OnClose(func(playwright.BrowserContext) { s.releaseContext() })
}

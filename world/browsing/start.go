package browsing

import (
	"context"
	"time"
)

// Start launches the browser in the background (the driver, the browser,
// then a context that the first session takes), so that an agent's first
// call does not wait for it. It returns at once; calling it again does
// nothing. A failure is not reported here: the first call that needs the
// browser launches it again and reports why.
func (s *Service) Start() {
	s.mu.Lock()
	if s.closed || s.starting != nil {
		s.mu.Unlock()
		return
	}
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	s.starting, s.stopStart = done, cancel
	s.mu.Unlock()
	go func() {
		defer close(done)
		defer cancel()
		began := time.Now()
		if _, err := s.l.Browser(ctx, 0); err != nil {
			return
		}
		s.mu.Lock()
		s.launchTook = time.Since(began)
		s.mu.Unlock()
		s.l.Prewarm(0)
	}()
}

// Starting returns a channel closed when the start-up that Start began is
// over, or nil when none is under way (never begun, or over).
func (s *Service) Starting() <-chan struct{} {
	s.mu.Lock()
	ch := s.starting
	s.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	default:
		return ch
	}
}

// LaunchTook is how long Start's launch of the browser took (zero until
// it succeeded).
func (s *Service) LaunchTook() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.launchTook
}

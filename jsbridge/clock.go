package jsbridge

import (
	"sync"
	"time"
)

// stepClock is the timeout of a call that can be paused: the running step
// or hook's, which stops counting while the step waits for something that
// is not its own work (the browser starting, see VM.PauseStepClock). Its
// deadline moves on by the time it was paused. Safe for concurrent use.
type stepClock struct {
	mu       sync.Mutex
	deadline time.Time // zero: no timeout
	paused   int
	since    time.Time     // when the current pause began
	total    time.Duration // time paused, finished pauses
}

func newClock(timeout time.Duration) *stepClock {
	c := &stepClock{}
	if timeout > 0 {
		c.deadline = time.Now().Add(timeout)
	}
	return c
}

// Deadline is when the clock runs out (zero: never). While paused it is
// the deadline the clock would have if resumed now.
func (c *stepClock) Deadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.deadline.IsZero() || c.paused == 0 {
		return c.deadline
	}
	return c.deadline.Add(time.Since(c.since))
}

// Paused is the time the clock has been paused so far.
func (c *stepClock) Paused() time.Duration {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused > 0 {
		return c.total + time.Since(c.since)
	}
	return c.total
}

// pause stops the clock until the returned function is called (pauses
// nest; the function may be called more than once).
func (c *stepClock) pause() (resume func()) {
	c.mu.Lock()
	if c.paused == 0 {
		c.since = time.Now()
	}
	c.paused++
	c.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.paused--
			if c.paused == 0 {
				d := time.Since(c.since)
				c.total += d
				if !c.deadline.IsZero() {
					c.deadline = c.deadline.Add(d)
				}
			}
		})
	}
}

// PauseStepClock stops the running step's (or hook's) timeout clock until
// resume is called: the step is waiting for something that is not its own
// work, such as the browser's start-up, which must not make it time out.
// The time paused moves its deadline on and is left out of its duration
// (Outcome.Paused). Outside a step it does nothing. Any goroutine; resume
// may be called more than once.
func (vm *VM) PauseStepClock() (resume func()) {
	c := vm.clock.Load()
	if c == nil {
		return func() {}
	}
	return c.pause()
}

// StepTimeout is the running step's (or hook's) timeout and where it was
// set (a Registry.TimeoutSource; zero and "" when none runs or it has no
// timeout). Browser calls that run out of the step's time name it.
func (vm *VM) StepTimeout() (time.Duration, string) {
	st := vm.stepState()
	return st.timeout, st.timeoutSource
}

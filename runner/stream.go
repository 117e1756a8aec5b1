package runner

import (
	"sync"

	"github.com/ferridriver/ferridriver/messages"
)

// Sink receives the envelopes of a run, one at a time, in stream order.
type Sink interface {
	Handle(env *messages.Envelope)
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(env *messages.Envelope)

// Handle calls f(env).
func (f SinkFunc) Handle(env *messages.Envelope) { f(env) }

// EarlySink is a Sink that also takes the envelopes of a test case that
// waits behind the head of the plan (another worker's) when they are
// produced, before Handle receives them in stream order: the message
// stream written through to a file shows every started test case, even
// if the run is killed before that test case reaches the head.
type EarlySink interface {
	Sink
	Early(env *messages.Envelope)
}

// stream serialises envelopes from parallel workers into one stream whose
// order does not depend on the number of workers: the envelopes of each
// test case form one block, blocks come in plan order. The block at the
// head streams through live; the others are buffered until they reach the
// head (and given to an EarlySink as they come).
type stream struct {
	mu      sync.Mutex
	sink    Sink
	early   EarlySink // sink, when it takes envelopes early
	head    int
	buffers map[int][]*messages.Envelope
	done    map[int]bool
}

func newStream(sink Sink) *stream {
	s := &stream{sink: sink, buffers: map[int][]*messages.Envelope{}, done: map[int]bool{}}
	s.early, _ = sink.(EarlySink)
	return s
}

// global emits an envelope outside of any test case block (meta, test run
// hooks, testRunFinished). Call it only when no block is in flight.
func (s *stream) global(env *messages.Envelope) {
	s.mu.Lock()
	s.sink.Handle(env)
	s.mu.Unlock()
}

// emit adds env to block i.
func (s *stream) emit(i int, env *messages.Envelope) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i == s.head {
		s.sink.Handle(env)
		return
	}
	s.buffers[i] = append(s.buffers[i], env)
	if s.early != nil {
		s.early.Early(env)
	}
}

// finish closes block i and releases the blocks that can now follow.
func (s *stream) finish(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done[i] = true
	for s.done[s.head] {
		delete(s.done, s.head)
		s.head++
		for _, env := range s.buffers[s.head] {
			s.sink.Handle(env)
		}
		delete(s.buffers, s.head)
	}
}

// flushAll releases every buffered envelope in block order, complete or
// not: used when a run is interrupted, so the reports show what ran.
func (s *stream) flushAll(blocks int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := s.head; i < blocks; i++ {
		if i != s.head {
			for _, env := range s.buffers[i] {
				s.sink.Handle(env)
			}
		}
		delete(s.buffers, i)
	}
	s.head = blocks
}

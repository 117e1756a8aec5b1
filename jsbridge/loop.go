package jsbridge

import (
	"container/heap"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

// Loop is the event loop of one VM. A goja.Runtime is single-threaded: all
// JS runs on the goroutine that pumps the loop (the VM's owner). Other
// goroutines hand work back with Enqueue; blocking Go calls run off the loop
// and settle their Promise on it (Promise), so JS never blocks the loop.
//
// Every task carries an async context (see Context): the value current when
// the work was scheduled is current again when it runs. Together with goja's
// AsyncContextTracker this makes per-call state, such as the capability
// policy of the tool handler that started the work, follow the handler
// through awaits, timers and callbacks.
type Loop struct {
	rt *goja.Runtime

	mu    sync.Mutex
	tasks []task
	wake  chan struct{}

	timers  timerHeap
	byID    map[int64]*timer
	nextID  int64
	seq     uint64
	pending int // Go operations in flight whose result will come back as a task

	cur any // the current async context

	stopped atomic.Bool // set by Stop: Await and Drain give up
}

// Stop makes every current and future Await or Drain return at once,
// unsettled. Safe from any goroutine; used to interrupt a run.
func (l *Loop) Stop() {
	l.stopped.Store(true)
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Wake makes a loop waiting for work check its state now (an Await's stop
// function). Safe from any goroutine.
func (l *Loop) Wake() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Stopped reports whether Stop was called.
func (l *Loop) Stopped() bool { return l.stopped.Load() }

type task struct {
	fn  func()
	ctx any
}

func newLoop(rt *goja.Runtime) *Loop {
	l := &Loop{rt: rt, wake: make(chan struct{}, 1), byID: map[int64]*timer{}}
	rt.SetAsyncContextTracker(asyncTracker{l})
	return l
}

// asyncTracker carries the loop's current context across promise reactions.
type asyncTracker struct{ l *Loop }

func (t asyncTracker) Grab() any       { return t.l.cur }
func (t asyncTracker) Resumed(ctx any) { t.l.cur = ctx }
func (t asyncTracker) Exited()         { t.l.cur = nil }

// Context returns the current async context (nil at rest). Loop goroutine only.
func (l *Loop) Context() any { return l.cur }

// RunIn runs fn with ctx as the current async context and restores the
// previous one afterwards. Loop goroutine only.
func (l *Loop) RunIn(ctx any, fn func()) {
	prev := l.cur
	l.cur = ctx
	defer func() { l.cur = prev }()
	fn()
}

// Enqueue schedules fn to run on the loop. Safe from any goroutine. The task
// runs with the async context given; pass l.Context() captured on the loop.
func (l *Loop) Enqueue(ctx any, fn func()) {
	l.mu.Lock()
	l.tasks = append(l.tasks, task{fn: fn, ctx: ctx})
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Promise runs work on a new goroutine and returns a JS Promise settled on
// the loop with its result: convert (run on the loop) turns the Go value into
// a JS value; an error rejects the promise with a JS Error. Loop goroutine
// only.
func (l *Loop) Promise(work func() (any, error), convert func(rt *goja.Runtime, v any) (goja.Value, error)) goja.Value {
	p, resolve, reject := l.rt.NewPromise()
	ctx := l.cur
	l.pending++
	go func() {
		v, err := work()
		l.Enqueue(ctx, func() {
			l.pending--
			if err == nil && convert != nil {
				var jv goja.Value
				jv, err = convert(l.rt, v)
				if err == nil {
					resolve(jv)
					return
				}
			}
			if err != nil {
				reject(ErrorValue(l.rt, err))
				return
			}
			resolve(l.rt.ToValue(v))
		})
	}()
	return l.rt.ToValue(p)
}

// Hold counts a Go operation in flight that reports back through Enqueue
// (a child process), so that Drain waits for it. Loop goroutine only; the
// returned release must run on the loop goroutine, once.
func (l *Loop) Hold() (release func()) {
	l.pending++
	done := false
	return func() {
		if !done {
			done = true
			l.pending--
		}
	}
}

// Pending reports whether Go operations or timers are outstanding.
func (l *Loop) Pending() bool { return l.pending > 0 || len(l.timers) > 0 }

// SetTimer schedules fn after d (repeating every d when repeat is set) and
// returns its id. Loop goroutine only.
func (l *Loop) SetTimer(d time.Duration, repeat bool, fn func()) int64 {
	if d < 0 {
		d = 0
	}
	l.nextID++
	l.seq++
	t := &timer{id: l.nextID, when: time.Now().Add(d), every: d, repeat: repeat, fn: fn, ctx: l.cur, seq: l.seq}
	l.byID[t.id] = t
	heap.Push(&l.timers, t)
	return t.id
}

// ClearTimer cancels a timer. Unknown ids are ignored, as in browsers.
func (l *Loop) ClearTimer(id int64) {
	if t, ok := l.byID[id]; ok {
		delete(l.byID, id)
		heap.Remove(&l.timers, t.index)
	}
}

// RunPending runs every task queued so far and every due timer, without
// waiting. It reports whether it ran anything.
func (l *Loop) RunPending() bool {
	ran := false
	l.mu.Lock()
	tasks := l.tasks
	l.tasks = nil
	l.mu.Unlock()
	for _, t := range tasks {
		l.RunIn(t.ctx, t.fn)
		ran = true
	}
	now := time.Now()
	for len(l.timers) > 0 && !l.timers[0].when.After(now) {
		t := l.timers[0]
		if t.repeat {
			l.seq++
			t.when, t.seq = now.Add(max(t.every, time.Millisecond)), l.seq
			heap.Fix(&l.timers, 0)
		} else {
			heap.Pop(&l.timers)
			delete(l.byID, t.id)
		}
		l.RunIn(t.ctx, t.fn)
		ran = true
	}
	return ran
}

// Await pumps the loop until p is settled or the deadline passes (zero
// deadline: no limit). It reports whether p settled. Loop goroutine only.
func (l *Loop) Await(p *goja.Promise, deadline time.Time) bool {
	return l.AwaitUntil(p, func() time.Time { return deadline }, nil)
}

// AwaitUntil is Await that also gives up when stop (nil: never) reports
// true; stop is asked while p is pending, before each round of tasks, that
// is after the microtasks of the previous one ran (where Node checks for
// unhandled rejections). deadline is asked again whenever it seems to have
// passed: it may have moved on (a paused step clock).
func (l *Loop) AwaitUntil(p *goja.Promise, deadline func() time.Time, stop func() bool) bool {
	for p.State() == goja.PromiseStatePending {
		if l.stopped.Load() {
			return false
		}
		if stop != nil && stop() {
			return false
		}
		if l.RunPending() {
			continue
		}
		if !l.wait(deadline()) {
			if d := deadline(); !d.IsZero() && time.Now().Before(d) {
				continue
			}
			return p.State() != goja.PromiseStatePending
		}
	}
	return true
}

// Drain pumps the loop until no task, timer or Go operation is outstanding,
// or the deadline passes. Used by scripts, which end when their work does.
func (l *Loop) Drain(deadline time.Time) bool {
	for {
		if l.stopped.Load() {
			return false
		}
		if l.RunPending() {
			continue
		}
		l.mu.Lock()
		idle := len(l.tasks) == 0
		l.mu.Unlock()
		if idle && !l.Pending() {
			return true
		}
		if !l.wait(deadline) {
			return false
		}
	}
}

// wait blocks until a task arrives, the next timer is due or the deadline
// passes. It returns false when the deadline passed.
func (l *Loop) wait(deadline time.Time) bool {
	var next time.Time
	if len(l.timers) > 0 {
		next = l.timers[0].when
	}
	if !deadline.IsZero() && (next.IsZero() || deadline.Before(next)) {
		next = deadline
	}
	var timeout <-chan time.Time
	if !next.IsZero() {
		d := time.Until(next)
		if d <= 0 {
			return deadline.IsZero() || time.Now().Before(deadline)
		}
		tm := time.NewTimer(d)
		defer tm.Stop()
		timeout = tm.C
	}
	select {
	case <-l.wake:
	case <-timeout:
	}
	return deadline.IsZero() || time.Now().Before(deadline)
}

type timer struct {
	id     int64
	when   time.Time
	every  time.Duration
	repeat bool
	fn     func()
	ctx    any
	seq    uint64
	index  int
}

// timerHeap orders timers by due time, then by creation, like Node.
type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].when.Equal(h[j].when) {
		return h[i].seq < h[j].seq
	}
	return h[i].when.Before(h[j].when)
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}

// Package memwatch stops code that grows the process's heap past a limit.
// goja has no memory limit of its own, per VM or per call: while guarded
// code runs, the process's heap is read every few milliseconds, and the
// code is stopped (by its host, through the callback) once the heap passes
// the limit. The MCP server guards its tool calls and scripts with it,
// `ferridriver bdd` its steps and hooks.
package memwatch

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Poll is how often a watch reads the heap: often enough that a loop
// allocating as fast as goja can does not get far past the limit.
const Poll = 5 * time.Millisecond

const (
	heapMetric = "/memory/classes/heap/objects:bytes"
	liveMetric = "/gc/heap/live:bytes"
)

// Heap returns the memory held by heap objects, live or not yet swept.
func Heap() uint64 { return read(heapMetric) }

// Live returns the heap that the last collection found live: what the
// process holds, without the garbage made since (0 before the first
// collection).
func Live() uint64 { return read(liveMetric) }

func read(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// Watch calls exceeded once, with the heap's size, when the heap passes
// limit, until the returned stop is called; stop waits for the watch to
// end, so exceeded is never called after it returns. A heap found over
// the limit is collected first, and exceeded is called only if what is
// live is still over it: garbage the collector has not reached yet is no
// reason to stop anything. A limit of 0 watches nothing.
//
// The first reading is one Poll after the call: code that ends sooner (most
// steps) costs a timer, not a goroutine.
func Watch(limit uint64, exceeded func(heap uint64)) (stop func()) {
	if limit == 0 {
		return func() {}
	}
	var (
		mu      sync.Mutex
		stopped bool
		done    chan struct{} // set when the watch started
	)
	quit := make(chan struct{})
	timer := time.AfterFunc(Poll, func() {
		mu.Lock()
		if stopped {
			mu.Unlock()
			return
		}
		done = make(chan struct{})
		mu.Unlock()
		defer close(done)
		tick := time.NewTicker(Poll)
		defer tick.Stop()
		for {
			if Heap() > limit {
				runtime.GC()
				select {
				case <-quit:
					return
				default:
				}
				if h := Heap(); h > limit {
					exceeded(h)
					return
				}
			}
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	})
	return func() {
		timer.Stop()
		mu.Lock()
		stopped = true
		started := done
		mu.Unlock()
		close(quit)
		if started != nil {
			<-started
		}
	}
}

// Release returns the memory of what was stopped to the system at once
// (the collector would otherwise wait for the heap to grow again before
// it frees it, and the next watch would start from a heap still full).
func Release() {
	runtime.GC()
	debug.FreeOSMemory()
}

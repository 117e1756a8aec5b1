package mcp

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// DefaultMemoryLimit is the heap a running script may grow the server to
// (Options.MemoryLimit when zero).
const DefaultMemoryLimit = 1 << 30

// memoryPoll is how often a running call's watchdog reads the heap: often
// enough that a loop allocating as fast as goja can does not get far past
// the limit.
const memoryPoll = 5 * time.Millisecond

// MemoryError stops a call whose JavaScript grew the server's heap past
// its limit (goja has no per-VM limit: the process's heap is watched while
// JavaScript runs).
type MemoryError struct {
	Limit, Heap uint64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the server's heap reached %d MiB while it ran, over the limit of %d MiB", e.Heap>>20, e.Limit>>20)
}

const heapMetric = "/memory/classes/heap/objects:bytes"

// heapBytes is the memory held by heap objects, live or not yet swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// watchMemory cancels cancel with a *MemoryError when the heap passes
// limit, until the returned stop is called. A limit of 0 watches nothing.
func watchMemory(limit uint64, cancel context.CancelCauseFunc) (stop func()) {
	if limit == 0 {
		return func() {}
	}
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(memoryPoll)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				if h := heapBytes(); h > limit {
					cancel(&MemoryError{Limit: limit, Heap: h})
					return
				}
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

// releaseMemory returns the memory of a VM dropped for exhausting it to
// the system at once (with GOGC raised, the collector would otherwise wait
// for the heap to grow well past the limit again).
func releaseMemory() {
	runtime.GC()
	debug.FreeOSMemory()
}

package mcp

import (
	"context"
	"fmt"

	"github.com/ferridriver/ferridriver/internal/memwatch"
)

// DefaultMemoryLimit is the heap a running script may grow the server to
// (Options.MemoryLimit when zero).
const DefaultMemoryLimit = 1 << 30

// MemoryError stops a call whose JavaScript grew the server's heap past
// its limit (goja has no per-VM limit: the process's heap is watched while
// JavaScript runs).
type MemoryError struct {
	Limit, Heap uint64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the server's heap reached %d MiB while it ran, over the limit of %d MiB", e.Heap>>20, e.Limit>>20)
}

// heapBytes is the memory held by heap objects, live or not yet swept.
func heapBytes() uint64 { return memwatch.Heap() }

// watchMemory cancels cancel with a *MemoryError when the heap passes
// limit, until the returned stop is called. A limit of 0 watches nothing.
func watchMemory(limit uint64, cancel context.CancelCauseFunc) (stop func()) {
	return memwatch.Watch(limit, func(heap uint64) {
		cancel(&MemoryError{Limit: limit, Heap: heap})
	})
}

// releaseMemory returns the memory of a VM dropped for exhausting it to
// the system at once (with GOGC raised, the collector would otherwise wait
// for the heap to grow well past the limit again).
func releaseMemory() { memwatch.Release() }

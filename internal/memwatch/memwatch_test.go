package memwatch

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

var sink [][]byte

// Memory that stays live past the limit is reported, once; garbage past
// it is not (the heap is collected before anything is stopped); after
// stop, nothing is.
func TestWatch(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // garbage stays until collected
	runtime.GC()
	limit := Heap() + 64<<20

	for range 200 {
		sink = append(sink, make([]byte, 1<<20))
	}
	sink = nil // garbage now
	calls := make(chan uint64, 4)
	stop := Watch(limit, func(h uint64) { calls <- h })
	time.Sleep(20 * Poll)
	select {
	case h := <-calls:
		t.Fatalf("garbage reported as over the limit (heap %d MiB)", h>>20)
	default:
	}
	for range 200 {
		sink = append(sink, make([]byte, 1<<20)) // live
	}
	select {
	case h := <-calls:
		if h <= limit {
			t.Errorf("reported heap %d MiB is under the limit %d MiB", h>>20, limit>>20)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("live memory over the limit not reported")
	}
	stop()
	select {
	case <-calls:
		t.Error("reported twice")
	default:
	}

	stop = Watch(limit, func(uint64) { calls <- 0 })
	stop()
	time.Sleep(10 * Poll)
	if len(calls) != 0 {
		t.Error("reported after stop")
	}
	sink = nil
	Release()
	if h := Heap(); h > limit {
		t.Errorf("after Release the heap is still %d MiB", h>>20)
	}
}

package capability

import (
	"sync"
	"unicode/utf8"
)

// capWriter keeps the first limit bytes written to it. Past the limit it
// discards (so the pipe keeps draining and nothing blocks) and closes over
// once, which tells Run to kill the process group.
type capWriter struct {
	limit    int
	buf      []byte
	overflow bool
	over     chan struct{}
}

func newCapWriter(limit int) *capWriter {
	return &capWriter{limit: limit, over: make(chan struct{})}
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.limit - len(w.buf); room >= len(p) {
		w.buf = append(w.buf, p...)
	} else {
		if room > 0 {
			w.buf = append(w.buf, p[:room]...)
		}
		if !w.overflow {
			w.overflow = true
			close(w.over)
		}
	}
	return len(p), nil
}

// ring keeps the last size bytes written to it. It is safe for a writer
// and concurrent readers. Memory stays below 2*size: the buffer is compacted
// whenever it doubles, which keeps Write amortised O(len(p)).
type ring struct {
	mu   sync.Mutex
	size int
	buf  []byte
}

func newRing(size int) *ring { return &ring{size: size} }

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	if n >= r.size {
		r.buf = append(r.buf[:0], p[n-r.size:]...)
		return n, nil
	}
	r.buf = append(r.buf, p...)
	if len(r.buf) > 2*r.size {
		keep := copy(r.buf, r.buf[len(r.buf)-r.size:])
		r.buf = r.buf[:keep]
	}
	return n, nil
}

// String returns the retained tail, at most size bytes, starting at a
// UTF-8 character boundary.
func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	tail := r.buf
	if len(tail) > r.size {
		tail = tail[len(tail)-r.size:]
	}
	// Drop a character cut in half by the window (at most 3 bytes).
	for i := 0; i < 3 && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	return string(tail)
}

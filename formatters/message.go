package formatters

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sort"

	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("message", newMessage) }

// messageFormatter writes the stream as NDJSON, written through: each
// envelope is one whole line, written with one call as it comes, so that
// a run killed at any moment leaves a file of whole lines (but perhaps the
// last) holding everything produced until then.
//
// With parallel workers, the runner hands over the envelopes of a test
// case that waits behind the head of the plan when they are produced
// (Early), and again in stream order when the test case reaches the head
// (Handle). Into a regular file, they are written when produced, so that
// the file shows every started test case; at Close the file is rewritten
// in stream order, which is the same for any number of workers. Elsewhere
// (stdout, a pipe) they are written in stream order only.
type messageFormatter struct {
	out  io.Writer
	file *reportFile // out, when it can be rewritten
	buf  bytes.Buffer
	enc  *json.Encoder
	size int64 // bytes written
	// Once an envelope was written early: the bytes written before it
	// (in stream order), the lines of every later envelope in stream
	// order, and those of the early envelopes not handled yet.
	reordered bool
	prefix    int64
	order     []span
	early     map[*messages.Envelope]span
}

// span is where one line is in the file.
type span struct{ off, n int64 }

func newMessage(o Options) (Formatter, error) {
	m := &messageFormatter{out: o.Out}
	if f, ok := o.Out.(*reportFile); ok && f.canRewrite() {
		m.file = f
	}
	m.enc = json.NewEncoder(&m.buf)
	m.enc.SetEscapeHTML(false)
	return m, nil
}

// write writes e as one line and returns where it is.
func (m *messageFormatter) write(e *messages.Envelope) (span, error) {
	m.buf.Reset()
	if err := m.enc.Encode(e); err != nil {
		return span{}, err
	}
	n, err := m.out.Write(m.buf.Bytes())
	sp := span{m.size, int64(n)}
	m.size += int64(n)
	return sp, err
}

func (m *messageFormatter) Handle(e *messages.Envelope) error {
	if sp, ok := m.early[e]; ok {
		delete(m.early, e)
		m.order = append(m.order, sp)
		return nil
	}
	sp, err := m.write(e)
	if m.reordered {
		m.order = append(m.order, sp)
	}
	return err
}

// Early writes an envelope of a test case that waits behind the head of
// the plan, when it is produced (see messageFormatter).
func (m *messageFormatter) Early(e *messages.Envelope) error {
	if m.file == nil {
		return nil
	}
	if !m.reordered {
		m.reordered, m.prefix = true, m.size
		m.early = map[*messages.Envelope]span{}
	}
	sp, err := m.write(e)
	m.early[e] = sp
	return err
}

// Close puts a file that received envelopes early in stream order.
func (m *messageFormatter) Close() error {
	if !m.reordered {
		return nil
	}
	// Envelopes written early that never came in stream order (none in a
	// run that ends, even interrupted) are kept, last.
	var rest []span
	for _, sp := range m.early {
		rest = append(rest, sp)
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].off < rest[j].off })
	order := append(append([]span{{0, m.prefix}}, m.order...), rest...)
	return m.file.Rewrite(func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		for i := 0; i < len(order); {
			// Lines that follow each other in the file are copied at once.
			run := order[i]
			for i++; i < len(order) && order[i].off == run.off+run.n; i++ {
				run.n += order[i].n
			}
			if _, err := io.Copy(bw, io.NewSectionReader(m.file, run.off, run.n)); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

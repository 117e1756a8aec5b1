// Package messages holds the Go types of the Cucumber Messages protocol
// (the version CCK 30.0.0 uses) and NDJSON reading and writing.
//
// The types in messages_gen.go are generated from the official JSON schema
// of the npm package @cucumber/messages; regenerate them with `go generate`
// after `make oracles`. Optional scalars are pointers with nil-safe getters
// (GetName, GetValue, ...); build them with Ptr.
package messages

//go:generate go run ./internal/gen -schema ../tools/oracles/node_modules/@cucumber/messages/messages.schema.json -out messages_gen.go -version 33.0.4

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// StartupMediaType is the media type of ferridriver's note on a test step
// that waited for the browser to start (text: how long, and what took the
// time): start-up is reported apart, not as the step's duration.
const StartupMediaType = "text/x.ferridriver.startup+plain"

// Ptr returns a pointer to v, for optional fields.
func Ptr[T any](v T) *T { return &v }

// NewTimestamp converts t to a protocol Timestamp.
func NewTimestamp(t time.Time) Timestamp {
	return Timestamp{Seconds: t.Unix(), Nanos: int64(t.Nanosecond())}
}

// Time converts a protocol Timestamp to a time.Time.
func (t Timestamp) Time() time.Time { return time.Unix(t.Seconds, t.Nanos) }

// NewDuration converts d to a protocol Duration.
func NewDuration(d time.Duration) Duration {
	return Duration{Seconds: int64(d / time.Second), Nanos: int64(d % time.Second)}
}

// Std converts a protocol Duration to a time.Duration.
func (d Duration) Std() time.Duration {
	return time.Duration(d.Seconds)*time.Second + time.Duration(d.Nanos)
}

// Kind returns the JSON name of the message an envelope carries
// ("pickle", "testStepFinished", ...), or "" for an empty envelope.
func (e *Envelope) Kind() string {
	switch {
	case e.Attachment != nil:
		return "attachment"
	case e.ExternalAttachment != nil:
		return "externalAttachment"
	case e.GherkinDocument != nil:
		return "gherkinDocument"
	case e.Hook != nil:
		return "hook"
	case e.Meta != nil:
		return "meta"
	case e.ParameterType != nil:
		return "parameterType"
	case e.ParseError != nil:
		return "parseError"
	case e.Pickle != nil:
		return "pickle"
	case e.Source != nil:
		return "source"
	case e.StepDefinition != nil:
		return "stepDefinition"
	case e.Suggestion != nil:
		return "suggestion"
	case e.TestCase != nil:
		return "testCase"
	case e.TestCaseFinished != nil:
		return "testCaseFinished"
	case e.TestCaseStarted != nil:
		return "testCaseStarted"
	case e.TestRunFinished != nil:
		return "testRunFinished"
	case e.TestRunHookFinished != nil:
		return "testRunHookFinished"
	case e.TestRunHookStarted != nil:
		return "testRunHookStarted"
	case e.TestRunStarted != nil:
		return "testRunStarted"
	case e.TestStepFinished != nil:
		return "testStepFinished"
	case e.TestStepStarted != nil:
		return "testStepStarted"
	case e.UndefinedParameterType != nil:
		return "undefinedParameterType"
	}
	return ""
}

// Writer writes envelopes as NDJSON, one JSON object per line.
type Writer struct {
	w   *bufio.Writer
	enc *json.Encoder
}

// NewWriter returns a Writer on w. Call Flush to push buffered lines out.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &Writer{w: bw, enc: enc}
}

// Write encodes one envelope and its trailing newline.
func (w *Writer) Write(e *Envelope) error { return w.enc.Encode(e) }

// Flush writes buffered data to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// Reader reads NDJSON envelopes, lines of any length.
type Reader struct {
	r    *bufio.Reader
	line int
	name string
}

// NewReader returns a Reader on r; name is used in error messages.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 1<<20), name: name}
}

// CutError is a stream whose last line stops in the middle of an envelope:
// the run writing it was killed, or its disk filled, while it wrote that
// line. What comes before is whole.
type CutError struct {
	Name string
	Line int
}

func (e *CutError) Error() string {
	return fmt.Sprintf("%s:%d: the stream ends in the middle of an envelope (the run writing it was stopped)", e.Name, e.Line)
}

// Read returns the next envelope, or io.EOF at the end. Blank lines are
// skipped. A line that is not a valid envelope is reported with its
// number; a last line without its newline that is not whole JSON is a
// *CutError.
func (r *Reader) Read() (*Envelope, error) {
	for {
		b, err := r.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A long line (a large attachment): gather it whole.
			long := append([]byte(nil), b...)
			for err == bufio.ErrBufferFull {
				b, err = r.r.ReadSlice('\n')
				long = append(long, b...)
			}
			b = long
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s:%d: %w", r.name, r.line+1, err)
		}
		last := err == io.EOF
		if last && len(b) == 0 {
			return nil, io.EOF
		}
		r.line++
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			if last {
				return nil, io.EOF
			}
			continue
		}
		var e Envelope
		if jerr := json.Unmarshal(b, &e); jerr != nil {
			if last && !json.Valid(b) {
				return nil, &CutError{Name: r.name, Line: r.line}
			}
			return nil, fmt.Errorf("%s:%d: not a Cucumber message: %w", r.name, r.line, jerr)
		}
		if e.Kind() == "" {
			return nil, fmt.Errorf("%s:%d: envelope carries no known message", r.name, r.line)
		}
		return &e, nil
	}
}

// ReadAll reads every envelope from r. Its error, if any, comes with the
// envelopes read before it (a *CutError after all the whole ones).
func ReadAll(r io.Reader, name string) ([]*Envelope, error) {
	rd := NewReader(r, name)
	var out []*Envelope
	for {
		e, err := rd.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, e)
	}
}

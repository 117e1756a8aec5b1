package formatters

import "github.com/ferridriver/ferridriver/messages"

func init() { Register("message", newMessage) }

// messageFormatter writes the stream as NDJSON. It flushes after every test
// case and at the end of the run, so an interrupted run leaves whole lines.
type messageFormatter struct{ w *messages.Writer }

func newMessage(o Options) (Formatter, error) {
	return &messageFormatter{w: messages.NewWriter(o.Out)}, nil
}

func (m *messageFormatter) Handle(e *messages.Envelope) error {
	if err := m.w.Write(e); err != nil {
		return err
	}
	if e.TestCaseFinished != nil || e.TestRunFinished != nil || e.TestRunHookFinished != nil {
		return m.w.Flush()
	}
	return nil
}

func (m *messageFormatter) Close() error { return m.w.Flush() }

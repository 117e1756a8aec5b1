package formatters

import (
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// A step's character reaches the output shortly after the step, without
// waiting for another event; the run's end writes everything at once.
func TestProgressIsLive(t *testing.T) {
	var out testenv.SyncBuffer
	f, err := newProgress(Options{Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	step := &messages.Envelope{TestStepFinished: &messages.TestStepFinished{TestStepResult: messages.TestStepResult{Status: messages.TestStepResultStatusPassed}}}
	if err := f.Handle(step); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for out.String() != "." {
		if time.Now().After(deadline) {
			t.Fatalf("after a step: %q", out.String())
		}
		time.Sleep(time.Millisecond)
	}
	for range 3 {
		f.Handle(step)
	}
	f.Handle(&messages.Envelope{TestRunFinished: &messages.TestRunFinished{Success: true}})
	if got := out.String(); !strings.HasPrefix(got, "....\n") {
		t.Errorf("at the end: %q", got)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

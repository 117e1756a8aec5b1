package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// suite is a project written to a temp dir and run in-process.
type suite struct {
	t      *testing.T
	dir    string
	envs   []*messages.Envelope
	res    Result
	stdout bytes.Buffer
	stderr bytes.Buffer
}

func newSuite(t *testing.T, files map[string]string) *suite {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, files)
	return &suite{t: t, dir: dir}
}

// prepare runs Prepare with opts (Dir, Strict and outputs filled in).
func (s *suite) prepare(opts Options) (*Run, error) {
	opts.Dir = s.dir
	opts.Stdout, opts.Stderr = &s.stdout, &s.stderr
	return Prepare(opts)
}

// run prepares and executes, failing the test on a preparation error.
func (s *suite) run(opts Options) *suite {
	s.t.Helper()
	r, err := s.prepare(opts)
	if err != nil {
		s.t.Fatalf("prepare: %v", err)
	}
	s.res = r.Execute(context.Background(), SinkFunc(func(e *messages.Envelope) { s.envs = append(s.envs, e) }))
	return s
}

// statuses returns, per test case attempt, the statuses of its steps, e.g.
// "PASSED FAILED SKIPPED".
func (s *suite) statuses() []string {
	var out []string
	var cur []string
	for _, e := range s.envs {
		switch {
		case e.TestCaseStarted != nil:
			cur = nil
		case e.TestStepFinished != nil:
			cur = append(cur, string(e.TestStepFinished.TestStepResult.Status))
		case e.TestCaseFinished != nil:
			out = append(out, strings.Join(cur, " "))
		}
	}
	return out
}

// results returns every step result, in order.
func (s *suite) results() []messages.TestStepResult {
	var out []messages.TestStepResult
	for _, e := range s.envs {
		if e.TestStepFinished != nil {
			out = append(out, e.TestStepFinished.TestStepResult)
		}
	}
	return out
}

// of returns the envelopes carrying the given kind.
func (s *suite) of(kind string) []*messages.Envelope {
	var out []*messages.Envelope
	for _, e := range s.envs {
		if e.Kind() == kind {
			out = append(out, e)
		}
	}
	return out
}

// pickleNames returns the names of the pickles of the test cases started, in order.
func (s *suite) pickleNames() []string {
	names := map[string]string{}
	cases := map[string]string{}
	for _, e := range s.envs {
		if e.Pickle != nil {
			names[e.Pickle.ID] = e.Pickle.Name
		}
		if e.TestCase != nil {
			cases[e.TestCase.ID] = e.TestCase.PickleID
		}
	}
	var out []string
	for _, e := range s.envs {
		if e.TestCaseStarted != nil && e.TestCaseStarted.Attempt == 0 {
			out = append(out, names[cases[e.TestCaseStarted.TestCaseID]])
		}
	}
	return out
}

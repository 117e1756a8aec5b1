package godogworld

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/formatters"
	gherkinmsg "github.com/cucumber/messages/go/v21"

	"github.com/ferridriver/ferridriver/messages"
)

// MessageFormat is the name of the godog formatter that writes the run as
// Cucumber Messages (NDJSON, one envelope per line), registered when the
// package is imported: godog.Options{Format: "pretty,message:report.ndjson"}
// or `--godog.format=message:report.ndjson`. `ferridriver report --from
// report.ndjson --format html:report.html` renders the official HTML
// report from it (JUnit, Cucumber JSON... too), with the screenshots and
// every other attachment.
//
// What the stream holds: the feature files (source, gherkinDocument,
// pickle), one stepDefinition per godog step definition that a step
// matched (its regular expression, and the file:line that registered it:
// the Go file, or the .ts file of a JavaScript step), and per scenario a
// testCase with its steps' results, durations, errors and attachments
// (godog.Attach's, the failure screenshot). godog's hooks are not test
// steps: their errors are part of the step they are reported on, as in
// godog's other formatters. testRunFinished.success is false when a
// scenario failed or has an undefined, pending or ambiguous step
// (cucumber's strict rule). Scenarios that Suite.RunWithRetries runs
// again are attempts of the same test case in the same stream.
const MessageFormat = "message"

func init() {
	godog.Format(MessageFormat, "Cucumber Messages NDJSON (ferridriver report renders HTML, JUnit, Cucumber JSON from it).", MessageFormatter)
}

// MessageFormatter is the godog.FormatterFunc of MessageFormat, for
// godog.Format under another name or a formatter of one's own.
func MessageFormatter(suite string, out io.Writer) godog.Formatter {
	st := newMessageStream(out)
	return &messageFmt{BaseFmt: godog.NewBaseFmt(suite, out), stream: st, closeStream: true}
}

// messageStream is one message stream: a godog run, or every attempt of
// RunWithRetries.
type messageStream struct {
	mu      sync.Mutex
	w       *messages.Writer
	out     io.Writer
	idBase  string
	seq     atomic.Int64
	err     error
	started bool   // the header and testRunStarted are written
	runID   string // testRunStarted.id

	defs map[string]string // stepDefinition id by pattern and location

	// cases are the test cases by pickle key (uri, name, steps): every
	// attempt of a scenario is one of its test case's.
	cases map[string][]*testCaseState
	// retries is how many attempts RunWithRetries may add (0: a plain run).
	retries int
}

// testCaseState is a test case of the stream across attempts.
type testCaseState struct {
	pickle   *gherkinmsg.Pickle // the first run's pickle (its ids are the stream's)
	attempts int
	// held is the testCaseFinished of the last attempt when it failed and
	// may be retried: written (willBeRetried or not) when that is known.
	held *messages.TestCaseFinished
	// status is the worst step status of the last attempt.
	status messages.TestStepResultStatus
	// retry: RunWithRetries runs the scenario again in its next attempt.
	retry bool
}

func newMessageStream(out io.Writer) *messageStream {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return &messageStream{w: messages.NewWriter(out), out: out, idBase: hex.EncodeToString(b[:]), defs: map[string]string{}, cases: map[string][]*testCaseState{}}
}

func (st *messageStream) newID() string {
	return st.idBase + "-" + strconv.FormatInt(st.seq.Add(1), 10)
}

// write writes envelopes; the first error is kept (and reported once).
func (st *messageStream) write(envs ...*messages.Envelope) {
	if st.err != nil {
		return
	}
	for _, e := range envs {
		if err := st.w.Write(e); err != nil {
			st.err = err
			fmt.Fprintf(os.Stderr, "godogworld: writing the message stream: %v\n", err)
			return
		}
	}
	if err := st.w.Flush(); err != nil {
		st.err = err
		fmt.Fprintf(os.Stderr, "godogworld: writing the message stream: %v\n", err)
	}
}

// nextAttempt writes the held testCaseFinished messages: of the test
// cases in retried (by pickle key) as to be retried, which the next
// attempt then writes, of the others as final.
func (st *messageStream) nextAttempt(retried map[string]bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.release(retried)
}

func (st *messageStream) release(retried map[string]bool) {
	for key, tcs := range st.cases {
		for _, tc := range tcs {
			if tc.held == nil {
				continue
			}
			tc.retry = retried[key]
			tc.held.WillBeRetried = tc.retry
			st.write(&messages.Envelope{TestCaseFinished: tc.held})
			tc.held = nil
		}
	}
}

// finish writes what is held and testRunFinished.
func (st *messageStream) finish() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.started {
		return
	}
	st.release(nil)
	success := true
	for _, tcs := range st.cases {
		for _, tc := range tcs {
			switch tc.status {
			case messages.TestStepResultStatusFailed, messages.TestStepResultStatusAmbiguous,
				messages.TestStepResultStatusUndefined, messages.TestStepResultStatusPending:
				success = false
			}
		}
	}
	st.write(&messages.Envelope{TestRunFinished: &messages.TestRunFinished{
		Success: success, Timestamp: messages.NewTimestamp(time.Now()), TestRunStartedID: messages.Ptr(st.runID),
	}})
}

// messageFmt is the godog formatter of one godog run on a stream.
type messageFmt struct {
	*godog.BaseFmt
	stream *messageStream
	// attempt is the run's attempt (0, then RunWithRetries' reruns).
	attempt int
	// closeStream: Summary ends the stream (a plain run).
	closeStream bool

	mu      sync.Mutex
	pending map[string]*pickleRun // by pickle id, until its last step
	seen    map[string]int        // occurrences of a pickle key in this run
}

// pickleRun is what the run has seen of a scenario.
type pickleRun struct {
	pickle  *gherkinmsg.Pickle
	results int
}

// TestRunStarted writes meta, the feature files, their pickles and
// testRunStarted (the first attempt only).
func (f *messageFmt) TestRunStarted() {
	st := f.stream
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.started {
		return
	}
	st.started = true
	st.runID = st.newID()
	envs := []*messages.Envelope{{Meta: messageMeta()}}
	for _, ft := range f.Storage.MustGetFeatures() {
		envs = append(envs, &messages.Envelope{Source: &messages.Source{
			URI: ft.Uri, Data: string(ft.Content), MediaType: messages.SourceMediaTypeTextXCucumberGherkinPlain,
		}})
		doc := &messages.GherkinDocument{}
		if err := convertMessage(ft.GherkinDocument, doc); err != nil {
			st.err = fmt.Errorf("converting %s: %w", ft.Uri, err)
			continue
		}
		envs = append(envs, &messages.Envelope{GherkinDocument: doc})
		locs := astLocations(ft.GherkinDocument)
		for _, p := range ft.Pickles {
			pk := &messages.Pickle{}
			if err := convertMessage(p, pk); err != nil {
				st.err = fmt.Errorf("converting a pickle of %s: %w", ft.Uri, err)
				continue
			}
			if n := len(p.AstNodeIds); n > 0 {
				if loc, ok := locs[p.AstNodeIds[n-1]]; ok {
					pk.Location = &messages.Location{Line: loc.Line, Column: messages.Ptr(loc.Column)}
				}
			}
			envs = append(envs, &messages.Envelope{Pickle: pk})
			key := pickleKey(p)
			st.cases[key] = append(st.cases[key], &testCaseState{pickle: p})
		}
	}
	started := f.Storage.MustGetTestRunStarted().StartedAt
	envs = append(envs, &messages.Envelope{TestRunStarted: &messages.TestRunStarted{ID: messages.Ptr(st.runID), Timestamp: messages.NewTimestamp(started)}})
	st.write(envs...)
}

// Feature is written with the others by TestRunStarted.
func (f *messageFmt) Feature(*gherkinmsg.GherkinDocument, string, []byte) {}

// Pickle: the scenario starts; one without steps ends at once.
func (f *messageFmt) Pickle(p *gherkinmsg.Pickle) {
	f.mu.Lock()
	if f.pending == nil {
		f.pending, f.seen = map[string]*pickleRun{}, map[string]int{}
	}
	f.pending[p.Id] = &pickleRun{pickle: p}
	f.mu.Unlock()
	if len(p.Steps) == 0 {
		f.stepDone(p)
	}
}

// Defined: the results say everything.
func (f *messageFmt) Defined(*gherkinmsg.Pickle, *gherkinmsg.PickleStep, *formatters.StepDefinition) {
}

func (f *messageFmt) Passed(p *gherkinmsg.Pickle, _ *gherkinmsg.PickleStep, _ *formatters.StepDefinition) {
	f.stepDone(p)
}

func (f *messageFmt) Skipped(p *gherkinmsg.Pickle, _ *gherkinmsg.PickleStep, _ *formatters.StepDefinition) {
	f.stepDone(p)
}

func (f *messageFmt) Undefined(p *gherkinmsg.Pickle, _ *gherkinmsg.PickleStep, _ *formatters.StepDefinition) {
	f.stepDone(p)
}

func (f *messageFmt) Failed(p *gherkinmsg.Pickle, _ *gherkinmsg.PickleStep, _ *formatters.StepDefinition, _ error) {
	f.stepDone(p)
}

func (f *messageFmt) Pending(p *gherkinmsg.Pickle, _ *gherkinmsg.PickleStep, _ *formatters.StepDefinition) {
	f.stepDone(p)
}

func (f *messageFmt) Ambiguous(p *gherkinmsg.Pickle, _ *gherkinmsg.PickleStep, _ *formatters.StepDefinition, _ error) {
	f.stepDone(p)
}

// Summary ends a plain run's stream (RunWithRetries ends its own after
// the last attempt).
func (f *messageFmt) Summary() {
	if f.closeStream {
		f.stream.finish()
	}
}

// stepDone counts a step's result; after the scenario's last, its test
// case is written whole (godog's concurrent runs deliver a scenario's
// results together at its end anyway), with the times godog recorded.
func (f *messageFmt) stepDone(p *gherkinmsg.Pickle) {
	f.mu.Lock()
	pr := f.pending[p.Id]
	if pr == nil {
		f.mu.Unlock()
		return
	}
	pr.results++
	if pr.results < len(p.Steps) {
		f.mu.Unlock()
		return
	}
	delete(f.pending, p.Id)
	key := pickleKey(p)
	occurrence := f.seen[key]
	f.seen[key]++
	f.mu.Unlock()
	f.writeTestCase(p, key, occurrence)
}

func (f *messageFmt) writeTestCase(p *gherkinmsg.Pickle, key string, occurrence int) {
	st := f.stream
	st.mu.Lock()
	defer st.mu.Unlock()
	tcs := st.cases[key]
	if len(tcs) == 0 {
		return // not a scenario of the first run
	}
	tc := tcs[min(occurrence, len(tcs)-1)]
	if f.attempt > 0 {
		if !tc.retry {
			// A rerun of a scenario line runs the outline's other examples
			// too: only the test cases that failed are attempted again.
			return
		}
		tc.retry = false
	}
	orig := tc.pickle
	startedAt := f.Storage.MustGetPickleResult(p.Id).StartedAt

	var envs []*messages.Envelope
	testCase := &messages.TestCase{ID: st.newID(), PickleID: orig.Id, TestRunStartedID: messages.Ptr(st.runID)}
	type stepRun struct {
		id      string
		result  messages.TestStepResult
		started time.Time
		ended   time.Time
		atts    []*messages.Attachment
	}
	runs := make([]stepRun, len(p.Steps))
	prev := startedAt
	worst := messages.TestStepResultStatusPassed
	for i, step := range p.Steps {
		res := f.Storage.MustGetPickleStepResult(step.Id)
		ts := &messages.TestStep{ID: st.newID(), PickleStepID: messages.Ptr(orig.Steps[min(i, len(orig.Steps)-1)].Id)}
		if res.Def != nil && res.Status.String() != "undefined" {
			defID, env := st.stepDefinition(res.Def.Expr.String(), res.Def.File, res.Def.Line)
			if env != nil {
				envs = append(envs, env)
			}
			ts.StepDefinitionIDs = []string{defID}
			ts.StepMatchArgumentsLists = []*messages.StepMatchArgumentsList{{StepMatchArguments: matchArguments(res.Def.Expr.FindStringSubmatchIndex(step.Text), step.Text)}}
		}
		testCase.TestSteps = append(testCase.TestSteps, ts)
		ended := res.FinishedAt
		if ended.Before(prev) {
			ended = prev
		}
		status := stepStatus(res.Status.String())
		result := messages.TestStepResult{Status: status, Duration: messages.NewDuration(ended.Sub(prev))}
		if res.Err != nil {
			msg := res.Err.Error()
			result.Message = messages.Ptr(msg)
			if status == messages.TestStepResultStatusFailed {
				result.Exception = &messages.Exception{Type: "Error", Message: messages.Ptr(msg)}
			}
		}
		if worse(status, worst) {
			worst = status
		}
		r := stepRun{id: ts.ID, result: result, started: prev, ended: ended}
		for _, a := range res.Attachments {
			r.atts = append(r.atts, attachment(a.Name, a.MimeType, a.Data))
		}
		runs[i] = r
		prev = ended
	}
	startID := st.newID()
	envs = append(envs,
		&messages.Envelope{TestCase: testCase},
		&messages.Envelope{TestCaseStarted: &messages.TestCaseStarted{ID: startID, TestCaseID: testCase.ID, Attempt: int64(tc.attempts), Timestamp: messages.NewTimestamp(startedAt)}},
	)
	for _, r := range runs {
		envs = append(envs, &messages.Envelope{TestStepStarted: &messages.TestStepStarted{TestCaseStartedID: startID, TestStepID: r.id, Timestamp: messages.NewTimestamp(r.started)}})
		for _, a := range r.atts {
			a.TestCaseStartedID, a.TestStepID = messages.Ptr(startID), messages.Ptr(r.id)
			envs = append(envs, &messages.Envelope{Attachment: a})
		}
		envs = append(envs, &messages.Envelope{TestStepFinished: &messages.TestStepFinished{TestCaseStartedID: startID, TestStepID: r.id, TestStepResult: r.result, Timestamp: messages.NewTimestamp(r.ended)}})
	}
	st.write(envs...)
	tc.attempts++
	tc.status = worst
	finished := &messages.TestCaseFinished{TestCaseStartedID: startID, Timestamp: messages.NewTimestamp(prev)}
	if worst == messages.TestStepResultStatusFailed && tc.attempts <= st.retries && f.attempt < st.retries {
		tc.held = finished // RunWithRetries says whether it runs again
		return
	}
	st.write(&messages.Envelope{TestCaseFinished: finished})
}

// stepDefinition returns the id of the step definition with pattern at
// file:line, and its envelope when it is new.
func (st *messageStream) stepDefinition(pattern, file string, line int) (string, *messages.Envelope) {
	key := pattern + "\x00" + file + "\x00" + strconv.Itoa(line)
	if id, ok := st.defs[key]; ok {
		return id, nil
	}
	id := st.newID()
	st.defs[key] = id
	ref := messages.SourceReference{}
	if file != "" {
		ref.URI = messages.Ptr(relativeURI(file))
		ref.Location = &messages.Location{Line: int64(line)}
	}
	return id, &messages.Envelope{StepDefinition: &messages.StepDefinition{
		ID: id, Pattern: messages.StepDefinitionPattern{Source: pattern, Type: messages.StepDefinitionPatternTypeRegularExpression}, SourceReference: ref,
	}}
}

// relativeURI is file relative to the working directory when it is
// inside it, slash-separated.
func relativeURI(file string) string {
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}

// matchArguments are the capture groups of a step's match (idx from
// FindStringSubmatchIndex) as step match arguments.
func matchArguments(idx []int, text string) []*messages.StepMatchArgument {
	out := []*messages.StepMatchArgument{}
	for g := 1; 2*g+1 < len(idx); g++ {
		start, end := idx[2*g], idx[2*g+1]
		if start < 0 {
			continue
		}
		out = append(out, &messages.StepMatchArgument{Group: messages.Group{
			Start: messages.Ptr(int64(utf8.RuneCountInString(text[:start]))), Value: messages.Ptr(text[start:end]), Children: []*messages.Group{},
		}})
	}
	return out
}

// attachment is a godog attachment as a message: text as it is, anything
// else base64.
func attachment(name, mediaType string, data []byte) *messages.Attachment {
	a := &messages.Attachment{MediaType: mediaType}
	if name != "" {
		a.FileName = messages.Ptr(name)
	}
	if (strings.HasPrefix(mediaType, "text/") || strings.HasSuffix(mediaType, "+json") || mediaType == "application/json") && utf8.Valid(data) {
		a.Body, a.ContentEncoding = string(data), messages.AttachmentContentEncodingIdentity
	} else {
		a.Body, a.ContentEncoding = base64.StdEncoding.EncodeToString(data), messages.AttachmentContentEncodingBase64
	}
	return a
}

func stepStatus(godogStatus string) messages.TestStepResultStatus {
	switch godogStatus {
	case "passed":
		return messages.TestStepResultStatusPassed
	case "failed":
		return messages.TestStepResultStatusFailed
	case "skipped":
		return messages.TestStepResultStatusSkipped
	case "undefined":
		return messages.TestStepResultStatusUndefined
	case "pending":
		return messages.TestStepResultStatusPending
	case "ambiguous":
		return messages.TestStepResultStatusAmbiguous
	}
	return messages.TestStepResultStatusUnknown
}

// worse orders statuses as cucumber does for a test case's result.
func worse(a, b messages.TestStepResultStatus) bool {
	rank := func(s messages.TestStepResultStatus) int {
		switch s {
		case messages.TestStepResultStatusPassed:
			return 1
		case messages.TestStepResultStatusSkipped:
			return 2
		case messages.TestStepResultStatusPending:
			return 3
		case messages.TestStepResultStatusUndefined:
			return 4
		case messages.TestStepResultStatusAmbiguous:
			return 5
		case messages.TestStepResultStatusFailed:
			return 6
		}
		return 0
	}
	return rank(a) > rank(b)
}

// pickleKey names a scenario across godog runs (whose ids differ): its
// file (without a :line filter), name and step texts.
func pickleKey(p *gherkinmsg.Pickle) string {
	var b strings.Builder
	b.WriteString(stripLine(p.Uri))
	b.WriteByte(0)
	b.WriteString(p.Name)
	for _, s := range p.Steps {
		b.WriteByte(0)
		b.WriteString(s.Text)
	}
	return b.String()
}

// stripLine removes the ":line" godog appends to the uri of a feature
// path given with one.
func stripLine(uri string) string {
	if i := strings.LastIndexByte(uri, ':'); i > 0 {
		if _, err := strconv.Atoi(uri[i+1:]); err == nil {
			return uri[:i]
		}
	}
	return uri
}

// astLocations maps the AST node ids of a Gherkin document (scenarios,
// example rows, steps, backgrounds) to their locations.
func astLocations(doc *gherkinmsg.GherkinDocument) map[string]gherkinmsg.Location {
	out := map[string]gherkinmsg.Location{}
	if doc == nil || doc.Feature == nil {
		return out
	}
	var scenario func(sc *gherkinmsg.Scenario)
	scenario = func(sc *gherkinmsg.Scenario) {
		if sc == nil {
			return
		}
		out[sc.Id] = *sc.Location
		for _, st := range sc.Steps {
			out[st.Id] = *st.Location
		}
		for _, ex := range sc.Examples {
			for _, row := range ex.TableBody {
				out[row.Id] = *row.Location
			}
		}
	}
	for _, c := range doc.Feature.Children {
		scenario(c.Scenario)
		if c.Rule != nil {
			for _, rc := range c.Rule.Children {
				scenario(rc.Scenario)
			}
		}
	}
	return out
}

// messageMeta is the stream's meta message.
func messageMeta() *messages.Meta {
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return &messages.Meta{
		ProtocolVersion: messages.ProtocolVersion,
		Implementation:  messages.Product{Name: "godog", Version: messages.Ptr(strings.TrimPrefix(godog.Version, "v"))},
		Runtime:         messages.Product{Name: "go", Version: messages.Ptr(runtime.Version())},
		Os:              messages.Product{Name: runtime.GOOS},
		Cpu:             messages.Product{Name: arch},
	}
}

// convertMessage copies a godog message (Cucumber Messages v21) into
// ferridriver's protocol type through their common JSON form.
func convertMessage(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

package godogworld

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	gherkin "github.com/cucumber/gherkin/go/v26"
	"github.com/cucumber/godog"
	gherkinmsg "github.com/cucumber/messages/go/v21"
)

// RunWithRetries runs ts like ts.Run(), then, while scenarios failed and
// at most retries times, runs godog again on those scenarios alone, and
// returns godog's exit status of the whole: 0 when every scenario passed
// in its last attempt. godog runs each scenario once and cannot repeat
// one inside a run, so a retry is a new godog run whose Paths are the
// failed scenarios' `file:line` (the rerun that godog's path filter
// supports):
//
//   - ts.ScenarioInitializer must be this Suite's ScenarioInitializer (it
//     records the failures) and ts.Options must name feature files
//     (Paths, not FeatureContents, which have no file:line to select).
//   - A retried scenario outline runs all its examples again (godog
//     selects a scenario by its line, not an example row's); only the
//     examples that failed count, the others' second results are ignored.
//   - Only failures are retried; undefined, pending and ambiguous steps
//     are not.
//   - ts.Options.TestingT must be nil: godog's subtest of a failed attempt
//     fails the test even when the retry passes. Check the returned
//     status instead (t.Fatal when it is not 0).
//   - godog's TestSuiteInitializer runs once per attempt (BeforeSuite and
//     AfterSuite hooks too); the Suite stays open between attempts and,
//     when ts uses its TestSuiteInitializer, is closed after the last.
//   - Reports: the "message" format (MessageFormat) writes one stream for
//     all attempts, each retried test case having its attempts
//     (willBeRetried, attempt), as cucumber-js's --retry does, so
//     `ferridriver report` shows them. Other formats that write a file
//     (cucumber:report.json) write attempt n to report.retryN.json; those
//     writing to the output (pretty) print every attempt there.
//
// Use it only for tests known to be flaky: a retry hides a failure that
// happens once in a while.
func (s *Suite) RunWithRetries(ts godog.TestSuite, retries int) (int, error) {
	if retries < 0 {
		return 2, fmt.Errorf("godogworld: RunWithRetries: retries is negative (%d)", retries)
	}
	if ts.Options == nil {
		return 2, errors.New("godogworld: RunWithRetries needs ts.Options (godog.BindFlags fills them from the command line)")
	}
	if retries > 0 && ts.Options.TestingT != nil {
		return 2, errors.New("godogworld: RunWithRetries with retries: set godog.Options.TestingT to nil (a failed attempt's subtest fails the test even when its retry passes) and check the returned status")
	}
	if retries > 0 && len(ts.Options.FeatureContents) > 0 {
		return 2, errors.New("godogworld: RunWithRetries with retries needs feature files (godog.Options.Paths): a scenario of FeatureContents has no file:line to run again")
	}
	base := *ts.Options
	formats, stream, closeOut, err := retryFormats(base, retries)
	if err != nil {
		return 2, err
	}
	defer closeOut()

	s.mu.Lock()
	s.holdOpen = true
	s.failed = nil
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.holdOpen = false
		closeIt := s.initialized
		s.mu.Unlock()
		if closeIt {
			if err := s.Close(); err != nil {
				s.opts.Logf("closing the browser: %v", err)
			}
		}
	}()

	opts := base
	opts.Format = formats(0)
	ts.Options = &opts
	status := ts.Run()
	if retries == 0 || status != 1 {
		stream.finish()
		return status, nil
	}
	failed, _, hard := s.retryable(base.Strict)
	for attempt := 1; attempt <= retries && len(failed) > 0; attempt++ {
		paths, located := scenarioPaths(base, failed)
		for key := range failed {
			if !located[key] {
				s.opts.Logf("a failed scenario of %s cannot be found again: it is not retried", stripLine(failed[key].Uri))
				hard = true
				delete(failed, key)
			}
		}
		if len(paths) == 0 {
			break
		}
		stream.nextAttempt(keysOf(failed))
		opts := base
		opts.Paths = paths
		opts.Format = formats(attempt)
		stream.attempt(attempt)
		ts.Options = &opts
		if st := ts.Run(); st > 1 {
			stream.finish()
			return st, nil
		}
		again, other, _ := s.retryable(base.Strict)
		for key := range failed {
			if again[key] == nil && !other[key] {
				delete(failed, key) // passed this time
			}
		}
	}
	stream.finish()
	if len(failed) > 0 || hard {
		return 1, nil
	}
	return 0, nil
}

// retryable takes the failures recorded since the last call: the failed
// scenarios that may be retried, by pickle key; the others that made the
// run fail (undefined or pending steps with strict, ambiguous ones), and
// whether there are any.
func (s *Suite) retryable(strict bool) (map[string]*godog.Scenario, map[string]bool, bool) {
	s.mu.Lock()
	failures := s.failed
	s.failed = nil
	s.mu.Unlock()
	out := map[string]*godog.Scenario{}
	hard := false
	other := map[string]bool{}
	for _, f := range failures {
		switch {
		case errors.Is(f.err, godog.ErrAmbiguous):
			hard = true
			other[pickleKey(f.pickle)] = true
		case errors.Is(f.err, godog.ErrUndefined), errors.Is(f.err, godog.ErrPending):
			if strict {
				hard = true
				other[pickleKey(f.pickle)] = true
			}
		default:
			out[pickleKey(f.pickle)] = f.pickle
		}
	}
	return out, other, hard
}

func keysOf(m map[string]*godog.Scenario) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// scenarioPaths are the `file:line` paths that select the failed
// scenarios, found by parsing their feature files again (godog's pickles
// do not carry their line); located says which scenarios were found.
func scenarioPaths(opts godog.Options, failed map[string]*godog.Scenario) ([]string, map[string]bool) {
	byFile := map[string][]string{}
	for key, p := range failed {
		uri := stripLine(p.Uri)
		byFile[uri] = append(byFile[uri], key)
	}
	located := map[string]bool{}
	seen := map[string]bool{}
	var paths []string
	for uri, keys := range byFile {
		lines, err := scenarioLines(opts, uri)
		if err != nil {
			continue
		}
		for _, key := range keys {
			line, ok := lines[key]
			if !ok {
				continue
			}
			located[key] = true
			path := uri + ":" + strconv.FormatInt(line, 10)
			if !seen[path] {
				seen[path] = true
				paths = append(paths, path)
			}
		}
	}
	sort.Strings(paths)
	return paths, located
}

// scenarioLines parses the feature file uri and maps its pickles' keys to
// the line of their scenario (godog's path filter selects by that line).
func scenarioLines(opts godog.Options, uri string) (map[string]int64, error) {
	var r io.ReadCloser
	var err error
	if opts.FS != nil {
		r, err = opts.FS.Open(uri)
	} else {
		r, err = os.Open(filepath.FromSlash(uri))
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	dialect := opts.Dialect
	if dialect == "" {
		dialect = gherkin.DefaultDialect
	}
	newID := (&gherkinmsg.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocumentForLanguage(r, dialect, newID)
	if err != nil {
		return nil, err
	}
	locs := astLocations(doc)
	out := map[string]int64{}
	for _, p := range gherkin.Pickles(*doc, uri, newID) {
		if len(p.AstNodeIds) == 0 {
			continue
		}
		if loc, ok := locs[p.AstNodeIds[0]]; ok {
			if _, dup := out[pickleKey(p)]; !dup {
				out[pickleKey(p)] = loc.Line
			}
		}
	}
	return out, nil
}

// retryFormats prepares the formats of each attempt: every "message"
// entry becomes one stream for all attempts (the returned one; a no-op
// stream when there is none), and from the second attempt on the other
// entries that write a file write it with ".retryN" before its extension.
func retryFormats(opts godog.Options, retries int) (func(attempt int) string, *retryStream, func(), error) {
	format := opts.Format
	if format == "" {
		format = "pretty"
	}
	entries := strings.Split(format, ",")
	rs := &retryStream{}
	var files []*os.File
	closeOut := func() {
		for _, f := range files {
			if err := f.Close(); err != nil {
				fmt.Fprintf(os.Stderr, "godogworld: %v\n", err)
			}
		}
	}
	name := ""
	for i, e := range entries {
		fmtName, path, hasPath := strings.Cut(e, ":")
		if fmtName != MessageFormat {
			continue
		}
		if rs.stream != nil {
			closeOut()
			return nil, nil, nil, errors.New("godogworld: RunWithRetries: more than one \"message\" format")
		}
		var out io.Writer = os.Stdout
		if opts.Output != nil {
			out = opts.Output
		}
		if hasPath {
			f, err := os.Create(path)
			if err != nil {
				closeOut()
				return nil, nil, nil, fmt.Errorf("godogworld: %w", err)
			}
			files = append(files, f)
			out = f
		}
		rs.stream = newMessageStream(out)
		rs.stream.retries = retries
		name = fmt.Sprintf("godogworld-message-%d", retryFormatSeq.Add(1))
		stream := rs.stream
		godog.Format(name, "Cucumber Messages of one RunWithRetries (internal)", func(suite string, _ io.Writer) godog.Formatter {
			return &messageFmt{BaseFmt: godog.NewBaseFmt(suite, io.Discard), stream: stream, attempt: int(rs.current.Load())}
		})
		entries[i] = name
	}
	formats := func(attempt int) string {
		if attempt == 0 {
			return strings.Join(entries, ",")
		}
		out := make([]string, len(entries))
		for i, e := range entries {
			fmtName, path, hasPath := strings.Cut(e, ":")
			if hasPath && fmtName != name {
				ext := filepath.Ext(path)
				path = strings.TrimSuffix(path, ext) + ".retry" + strconv.Itoa(attempt) + ext
				e = fmtName + ":" + path
			}
			out[i] = e
		}
		return strings.Join(out, ",")
	}
	return formats, rs, closeOut, nil
}

// retryFormatSeq numbers the formats RunWithRetries registers (godog's
// registry is global and append-only).
var retryFormatSeq atomic.Int64

// retryStream is the message stream of a RunWithRetries, if it has one.
type retryStream struct {
	stream  *messageStream
	current atomic.Int64 // the attempt being run
}

func (r *retryStream) attempt(n int) { r.current.Store(int64(n)) }

func (r *retryStream) nextAttempt(keys map[string]bool) {
	if r.stream != nil {
		r.stream.nextAttempt(keys)
	}
}

func (r *retryStream) finish() {
	if r.stream != nil {
		r.stream.finish()
	}
}

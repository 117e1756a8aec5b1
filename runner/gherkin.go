package runner

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"

	gherkin "github.com/cucumber/gherkin/go/v32"
	"github.com/google/uuid"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { uuid.EnableRandPool() }

// newID returns a fresh message id: a version-4 UUID whose first 74 random
// bits are drawn once per process and whose last 48 count. The random part
// keeps ids unique across the shards of a run whose streams are merged
// later; drawing it once saves a random draw per id (a large suite makes
// tens of thousands: every AST node, pickle, test case and step has one).
func newID() string {
	n := idCounter.Add(1)
	var b [36]byte
	copy(b[:], idPrefix)
	const hex = "0123456789abcdef"
	for i := 35; i >= 24; i-- {
		b[i] = hex[n&15]
		n >>= 4
	}
	return string(b[:])
}

var (
	// idPrefix is "xxxxxxxx-xxxx-4xxx-yxxx-": a random UUID's first four
	// groups, version and variant included.
	idPrefix  = uuid.NewString()[:24]
	idCounter atomic.Uint64
)

// feature is one parsed .feature file.
type feature struct {
	path    string // absolute
	uri     string // relative to the project directory, slash-separated
	source  *messages.Source
	doc     *messages.GherkinDocument
	pickles []*messages.Pickle
	// locations of the AST nodes a pickle refers to (scenarios, example rows)
	locations map[string]messages.Location
	// steps by AST node id, for the step a pickle step comes from
	steps map[string]*messages.Step
}

// ParseError is a feature file that is not valid Gherkin.
type ParseError struct {
	URI      string
	Line     int
	Column   int
	Message  string
	Problems []string // further problems in the same file
}

func (e *ParseError) Error() string {
	msg := fmt.Sprintf("%s:%d:%d: %s", e.URI, e.Line, e.Column, e.Message)
	for _, p := range e.Problems {
		msg += "\n" + p
	}
	return msg
}

// gherkin reports problems as "(line:col): message".
var gherkinProblemRE = regexp.MustCompile(`^\((\d+):(\d+)\): (.*)$`)

// parseFeature parses one file with the Gherkin library, in language when
// the file does not say "# language:". The library's types (an older
// protocol) are converted to ours through their common JSON form.
func parseFeature(path, uri, language string) (*feature, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseFeatureData(data, path, uri, language)
}

// parseFeatureData parses the content of a feature file.
func parseFeatureData(data []byte, path, uri, language string) (*feature, error) {
	if language == "" {
		language = gherkin.DefaultDialect
	}
	if gherkin.DialectsBuiltin().GetDialect(language) == nil {
		return nil, usageErrorf("unknown Gherkin language %q (--language / [test] language)", language)
	}
	markdown := isMarkdownFeature(path)
	var matcher gherkin.Matcher = gherkin.NewLanguageMatcher(gherkin.DialectsBuiltin(), language)
	if markdown {
		matcher = newMarkdownMatcher(language)
	}
	builder := gherkin.NewAstBuilder(newID)
	parser := gherkin.NewParser(builder)
	parser.StopAtFirstError(false)
	err := parser.Parse(&lineScanner{data: data}, matcher)
	gdoc := builder.GetGherkinDocument()
	if err != nil {
		return nil, parseErrorOf(uri, err)
	}
	gdoc.Uri = uri
	if err := expandExamplesFiles(gdoc, path, uri); err != nil {
		return nil, err
	}
	gpickles := gherkin.Pickles(*gdoc, uri, newID)

	f := &feature{
		path:      path,
		uri:       uri,
		source:    &messages.Source{URI: uri, Data: string(data), MediaType: messages.SourceMediaTypeTextXCucumberGherkinPlain},
		locations: map[string]messages.Location{},
		steps:     map[string]*messages.Step{},
	}
	if markdown {
		f.source.MediaType = messages.SourceMediaTypeTextXCucumberGherkinMarkdown
	}
	f.doc = convDocument(gdoc)
	f.pickles = make([]*messages.Pickle, len(gpickles))
	for i, gp := range gpickles {
		f.pickles[i] = convPickle(gp)
	}
	f.indexLocations()
	for _, p := range f.pickles {
		// A pickle points at its scenario, or at its example row (last id).
		if loc, ok := f.locations[p.AstNodeIDs[len(p.AstNodeIDs)-1]]; ok {
			p.Location = &loc
		}
	}
	return f, nil
}

// lineScanner gives the Gherkin parser the lines of a file held in memory,
// as the library's own scanner does (split at "\n", a trailing "\r"
// dropped) but without its bufio.Scanner's 64 KiB line limit: past it,
// that scanner stops with an error the parser then dereferences as a nil
// line, a panic. A line of any length is read here.
type lineScanner struct {
	data []byte
	line int
}

func (s *lineScanner) Scan() (*gherkin.Line, bool, error) {
	s.line++
	if len(s.data) == 0 {
		return &gherkin.Line{LineNumber: s.line, AtEof: true}, true, nil
	}
	text := s.data
	if i := bytes.IndexByte(s.data, '\n'); i >= 0 {
		text, s.data = s.data[:i], s.data[i+1:]
	} else {
		s.data = nil
	}
	str := string(bytes.TrimSuffix(text, []byte{'\r'}))
	return &gherkin.Line{LineText: str, LineNumber: s.line, TrimmedLineText: strings.TrimLeft(str, " \t")}, false, nil
}

// isMarkdownFeature says whether path is Markdown with Gherkin.
func isMarkdownFeature(path string) bool { return strings.HasSuffix(path, ".feature.md") }

// isFeatureFile says whether path is a feature file: Gherkin or Markdown
// with Gherkin.
func isFeatureFile(path string) bool {
	return strings.HasSuffix(path, ".feature") || isMarkdownFeature(path)
}

// parseErrorOf turns the library's "(line:col): message" list into a
// ParseError naming the first problem in the file, with the others attached.
func parseErrorOf(uri string, err error) error {
	type problem struct {
		line, col int
		msg       string
	}
	var ps []problem
	for _, line := range strings.Split(err.Error(), "\n") {
		if m := gherkinProblemRE.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			var p problem
			fmt.Sscan(m[1], &p.line)
			fmt.Sscan(m[2], &p.col)
			p.msg = m[3]
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return &ParseError{URI: uri, Line: 1, Column: 1, Message: err.Error()}
	}
	sort.SliceStable(ps, func(i, j int) bool {
		return ps[i].line < ps[j].line || (ps[i].line == ps[j].line && ps[i].col < ps[j].col)
	})
	pe := &ParseError{URI: uri, Line: ps[0].line, Column: ps[0].col, Message: ps[0].msg}
	for _, p := range ps[1:] {
		pe.Problems = append(pe.Problems, fmt.Sprintf("%s:%d:%d: %s", uri, p.line, p.col, p.msg))
	}
	return pe
}

func (f *feature) indexLocations() {
	if f.doc.Feature == nil {
		return
	}
	steps := func(ss []*messages.Step) {
		for _, st := range ss {
			f.steps[st.ID] = st
		}
	}
	scenario := func(s *messages.Scenario) {
		f.locations[s.ID] = s.Location
		steps(s.Steps)
		for _, ex := range s.Examples {
			for _, row := range ex.TableBody {
				f.locations[row.ID] = row.Location
			}
		}
	}
	for _, c := range f.doc.Feature.Children {
		switch {
		case c.Background != nil:
			steps(c.Background.Steps)
		case c.Scenario != nil:
			scenario(c.Scenario)
		case c.Rule != nil:
			for _, rc := range c.Rule.Children {
				if rc.Background != nil {
					steps(rc.Background.Steps)
				}
				if rc.Scenario != nil {
					scenario(rc.Scenario)
				}
			}
		}
	}
}

// currentStep describes the Gherkin step a pickle step comes from, for the
// step code that runs it (jsbridge.CurrentStep).
func (f *feature) currentStep(ps *messages.PickleStep) *jsbridge.CurrentStep {
	cs := &jsbridge.CurrentStep{URI: f.uri, Text: ps.Text}
	if len(ps.AstNodeIDs) > 0 {
		if st := f.steps[ps.AstNodeIDs[0]]; st != nil {
			cs.Line, cs.Keyword = int(st.Location.Line), st.Keyword
		}
	}
	return cs
}

// pickleLines are the lines a "file.feature:LINE" filter may name to select
// a pickle: its scenario's keyword line and, for examples, its row's line.
func (f *feature) pickleLines(p *messages.Pickle) []int64 {
	lines := make([]int64, 0, 2)
	for _, id := range p.AstNodeIDs {
		if loc, ok := f.locations[id]; ok {
			lines = append(lines, loc.Line)
		}
	}
	return lines
}

package runner

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	tagexpressions "github.com/cucumber/tag-expressions/go/v6"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// plannedCase is a test case: a pickle with its hooks and matched steps.
type plannedCase struct {
	msg       *messages.TestCase
	pickle    *messages.Pickle
	feature   *feature
	steps     []*plannedStep
	retryable bool
	// beforeStep and afterStep are the step hooks whose tags match.
	beforeStep, afterStep []*jsbridge.HookDef
}

// plannedStep is one test step: a hook or a pickle step with its matches.
type plannedStep struct {
	msg        *messages.TestStep
	hook       *jsbridge.HookDef    // hook steps
	pickleStep *messages.PickleStep // pickle steps
	defs       []int                // matching definitions
	args       []jsbridge.StepArg   // arguments of the single match
	ambiguous  string               // message listing the matches, when several
}

// UsageError is bad input found before anything runs: an invalid tag
// expression, a malformed --shard or --order, a name that is not a regex.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usageErrorf(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// pickleFilter selects pickles by tag expressions, names and lines.
type pickleFilter struct {
	tags  []tagexpressions.Evaluatable
	names []*regexp.Regexp
}

func newPickleFilter(tags, names []string) (*pickleFilter, error) {
	f := &pickleFilter{}
	for _, t := range tags {
		if strings.TrimSpace(t) == "" {
			continue
		}
		e, err := parseTagExpression(t)
		if err != nil {
			return nil, err
		}
		f.tags = append(f.tags, e)
	}
	for _, n := range names {
		re, err := regexp.Compile(n)
		if err != nil {
			return nil, usageErrorf("--name %q is not a valid regular expression: %v", n, err)
		}
		f.names = append(f.names, re)
	}
	return f, nil
}

// parseTagExpression parses a Cucumber tag expression. The library panics
// on some malformed input ("@a and"); that is reported as an error too.
func parseTagExpression(expr string) (e tagexpressions.Evaluatable, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, usageErrorf("invalid tag expression %q: incomplete expression", expr)
		}
	}()
	e, err = tagexpressions.Parse(expr)
	if err != nil {
		return nil, usageErrorf("invalid tag expression %q: %v", expr, err)
	}
	return e, nil
}

func pickleTags(p *messages.Pickle) []string {
	tags := make([]string, len(p.Tags))
	for i, t := range p.Tags {
		tags[i] = t.Name
	}
	return tags
}

func (f *pickleFilter) matches(p *messages.Pickle, tags []string) bool {
	for _, e := range f.tags {
		if !e.Evaluate(tags) {
			return false
		}
	}
	if len(f.names) == 0 {
		return true
	}
	for _, re := range f.names {
		if re.MatchString(p.Name) {
			return true
		}
	}
	return false
}

// shard keeps the i-th of n round-robin shards ("i/n", 1-based).
func shard(spec string, n int) (func(int) bool, error) {
	if spec == "" {
		return func(int) bool { return true }, nil
	}
	a, b, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(a)
	total, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || total < 1 || i < 1 || i > total {
		return nil, usageErrorf("--shard %q: expected INDEX/TOTAL with 1 <= INDEX <= TOTAL, e.g. 1/3", spec)
	}
	return func(k int) bool { return k%total == i-1 }, nil
}

// ordering parses --order and returns the seed used for random order
// ("" otherwise).
func ordering(spec string) (kind, seed string, err error) {
	switch {
	case spec == "" || spec == "defined":
		return "defined", "", nil
	case spec == "reverse":
		return "reverse", "", nil
	case spec == "random":
		return "random", strconv.FormatInt(time.Now().UnixNano()%1_000_000, 10), nil
	case strings.HasPrefix(spec, "random:"):
		seed = strings.TrimPrefix(spec, "random:")
		if seed == "" {
			return "", "", usageErrorf("--order random: needs a seed after the colon")
		}
		return "random", seed, nil
	}
	return "", "", usageErrorf("--order %q: expected defined, reverse, random or random:SEED", spec)
}

// shuffle reorders cases deterministically for a seed: the same seed gives
// the same order, whatever the number of workers.
func shuffle[T any](items []T, seed string) {
	var s uint64
	if n, err := strconv.ParseUint(seed, 10, 64); err == nil {
		s = n
	} else {
		h := fnv.New64a()
		h.Write([]byte(seed))
		s = h.Sum64()
	}
	r := rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
}

// plan builds the test cases of the selected pickles: matching Before hooks
// in definition order, the steps, matching After hooks in reverse order.
func (r *Run) plan(pickles []selectedPickle) error {
	reg := r.vm0.Registry()
	var before, after []*jsbridge.HookDef
	for _, h := range reg.Hooks {
		switch h.Kind {
		case jsbridge.Before:
			before = append(before, h)
		case jsbridge.After:
			after = append([]*jsbridge.HookDef{h}, after...)
		}
	}
	var retryFilter tagexpressions.Evaluatable
	if r.opts.RetryTagFilter != "" {
		e, err := parseTagExpression(r.opts.RetryTagFilter)
		if err != nil {
			return err
		}
		retryFilter = e
	}
	for _, sp := range pickles {
		p, tags := sp.pickle, sp.tags
		tc := &plannedCase{
			msg:       &messages.TestCase{ID: newID(), PickleID: p.ID, TestRunStartedID: messages.Ptr(r.testRunStartedID)},
			pickle:    p,
			feature:   sp.feature,
			retryable: r.opts.Retry > 0 && (retryFilter == nil || retryFilter.Evaluate(tags)),
		}
		addHook := func(h *jsbridge.HookDef) {
			if r.hookApplies(h, tags) {
				tc.steps = append(tc.steps, &plannedStep{
					msg:  &messages.TestStep{ID: newID(), HookID: messages.Ptr(r.hookIDs[h.Index])},
					hook: h,
				})
			}
		}
		for _, h := range before {
			addHook(h)
		}
		for _, h := range reg.Hooks {
			if h.IsStub() || !r.hookApplies(h, tags) {
				// A library that is not loaded has no step hooks to run.
				continue
			}
			switch h.Kind {
			case jsbridge.BeforeStep:
				tc.beforeStep = append(tc.beforeStep, h)
			case jsbridge.AfterStep:
				tc.afterStep = append(tc.afterStep, h)
			}
		}
		for _, ps := range p.Steps {
			st, err := r.planStep(ps)
			if err != nil {
				return err
			}
			tc.steps = append(tc.steps, st)
		}
		for _, h := range after {
			addHook(h)
		}
		tc.msg.TestSteps = make([]*messages.TestStep, len(tc.steps))
		for i, s := range tc.steps {
			tc.msg.TestSteps[i] = s.msg
		}
		r.cases = append(r.cases, tc)
	}
	return nil
}

func (r *Run) hookApplies(h *jsbridge.HookDef, tags []string) bool {
	e := r.hookTags[h.Index]
	return e == nil || e.Evaluate(tags)
}

func (r *Run) planStep(ps *messages.PickleStep) (*plannedStep, error) {
	pm, err := r.planMatch(ps.Text)
	if err != nil {
		return nil, err
	}
	return &plannedStep{
		msg: &messages.TestStep{
			ID:                      newID(),
			PickleStepID:            messages.Ptr(ps.ID),
			StepDefinitionIDs:       slices.Clone(pm.defIDs),
			StepMatchArgumentsLists: slices.Clone(pm.argLists),
		},
		pickleStep: ps,
		defs:       pm.defs,
		args:       pm.args,
		ambiguous:  pm.ambiguous,
	}, nil
}

// plannedMatch is what planning a step makes of its text: the same for
// every step with that text, so made once (a suite repeats its steps).
// Its slices and messages are shared and must not be changed.
type plannedMatch struct {
	defs      []int
	defIDs    []string
	argLists  []*messages.StepMatchArgumentsList
	args      []jsbridge.StepArg
	ambiguous string
}

func (r *Run) planMatch(text string) (*plannedMatch, error) {
	if pm, ok := r.planned[text]; ok {
		return pm, nil
	}
	matches, err := r.matcher.match(text)
	if err != nil {
		return nil, err
	}
	pm := &plannedMatch{
		defIDs:   make([]string, len(matches)),
		argLists: make([]*messages.StepMatchArgumentsList, len(matches)),
	}
	for i, m := range matches {
		pm.defs = append(pm.defs, m.def)
		pm.defIDs[i] = r.stepDefIDs[m.def]
		pm.argLists[i] = matchArgumentsList(text, m.args)
	}
	switch len(matches) {
	case 1:
		pm.args = stepArgs(matches[0].args)
	case 0:
	default:
		pm.ambiguous = r.matcher.ambiguity(matches)
	}
	if r.planned == nil {
		r.planned = map[string]*plannedMatch{}
	}
	r.planned[text] = pm
	return pm, nil
}

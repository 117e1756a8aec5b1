package merge_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/formatters/merge"
	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// reid gives every id of an envelope a prefix, as a shard that parsed the
// same files with its own UUIDs would have them.
func reid(t *testing.T, e *messages.Envelope, prefix string) *messages.Envelope {
	b, _ := json.Marshal(e)
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				if testenv.IDKeys[k] {
					switch id := val.(type) {
					case string:
						x[k] = prefix + id
					case []any:
						for i := range id {
							id[i] = prefix + id[i].(string)
						}
					}
					continue
				}
				x[k] = walk(val)
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	b, _ = json.Marshal(walk(v))
	var out messages.Envelope
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// shard splits a stream into n shards the way `--shard i/n` runs produce
// them: every shard repeats the sources, documents and definitions under
// its own ids, has the pickles and test cases of every n-th test case,
// and its own testRunStarted/Finished; the test run hooks run in the
// first shard, suggestions are in the shard of their step.
func shard(t *testing.T, envs []*messages.Envelope, n int) [][]*messages.Envelope {
	owner := map[string]int{} // pickle, testCase and testCaseStarted ids -> shard
	tc := 0
	for _, e := range envs {
		if e.TestCase != nil {
			owner[e.TestCase.PickleID] = tc % n
			owner[e.TestCase.ID] = tc % n
			tc++
		}
	}
	for _, e := range envs {
		if e.Pickle != nil {
			for _, s := range e.Pickle.Steps {
				owner[s.ID] = owner[e.Pickle.ID]
			}
		}
	}
	shards := make([][]*messages.Envelope, n)
	for _, e := range envs {
		target := -1 // all shards
		switch {
		case e.Pickle != nil:
			target = owner[e.Pickle.ID]
		case e.TestCase != nil:
			target = owner[e.TestCase.ID]
		case e.TestCaseStarted != nil:
			owner[e.TestCaseStarted.ID] = owner[e.TestCaseStarted.TestCaseID]
			target = owner[e.TestCaseStarted.ID]
		case e.TestStepStarted != nil:
			target = owner[e.TestStepStarted.TestCaseStartedID]
		case e.TestStepFinished != nil:
			target = owner[e.TestStepFinished.TestCaseStartedID]
		case e.TestCaseFinished != nil:
			target = owner[e.TestCaseFinished.TestCaseStartedID]
		case e.Attachment != nil && e.Attachment.TestCaseStartedID != nil:
			target = owner[*e.Attachment.TestCaseStartedID]
		case e.Suggestion != nil:
			target = owner[e.Suggestion.PickleStepID]
		case e.TestRunHookStarted != nil, e.TestRunHookFinished != nil, e.Attachment != nil:
			target = 0
		}
		for i := range shards {
			if target < 0 || target == i {
				shards[i] = append(shards[i], reid(t, e, "s"+string(rune('a'+i))+"-"))
			}
		}
	}
	return shards
}

func render(t *testing.T, format string, envs []*messages.Envelope) string {
	t.Helper()
	var out bytes.Buffer
	set, err := formatters.NewSet([]formatters.Spec{{Name: format}}, formatters.Options{FormatOptions: map[string]any{}}, &out, os.Stderr, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs {
		set.Handle(e)
	}
	set.Close()
	if set.Failed() {
		t.Fatalf("%s failed", format)
	}
	return out.String()
}

// TestShardsMergeIntoTheWholeRun: merged shards are the unsharded run's
// stream up to ids and times, and render the same reports; with more
// shards than test cases too (empty shards).
func TestShardsMergeIntoTheWholeRun(t *testing.T) {
	for _, tc := range []struct {
		sample string
		shards int
	}{
		{"examples-tables", 3}, {"rules", 3}, {"hooks", 3}, {"attachments", 3}, {"retry", 3}, {"undefined", 3},
		{"global-hooks", 3}, {"multiple-features", 3}, {"multiple-features", 7}, {"minimal", 4},
	} {
		sample := tc.sample
		t.Run(fmt.Sprintf("%s/%d", sample, tc.shards), func(t *testing.T) {
			whole := oracles.CCKStream(t, sample)
			merged, err := merge.Streams(shard(t, whole, tc.shards)...)
			if err != nil {
				t.Fatal(err)
			}
			if want, got := testenv.NormalisedStream(t, whole), testenv.NormalisedStream(t, merged); want != got {
				t.Errorf("the merged stream differs from the whole run's (up to ids and times):\n--- whole\n%s\n--- merged\n%s", want, got)
			}
			for _, format := range []string{"junit", "json", "summary", "snippets", "rerun", "usage", "usage-json"} {
				if want, got := render(t, format, whole), render(t, format, merged); want != got {
					t.Errorf("%s of the merged shards differs from the whole run's:\n--- whole\n%s\n--- merged\n%s", format, want, got)
				}
			}
			var metas, starts, finishes int
			for _, e := range merged {
				switch {
				case e.Meta != nil:
					metas++
				case e.TestRunStarted != nil:
					starts++
				case e.TestRunFinished != nil:
					finishes++
					if id := e.TestRunFinished.GetTestRunStartedID(); id != "" && !strings.HasPrefix(id, "sa-") {
						t.Errorf("testRunFinished refers to %s", id)
					}
				}
			}
			if metas != 1 || starts != 1 || finishes != 1 {
				t.Errorf("merged stream has %d meta, %d testRunStarted, %d testRunFinished", metas, starts, finishes)
			}
		})
	}
}

func TestMergeRules(t *testing.T) {
	whole := oracles.CCKStream(t, "minimal")
	if got, _ := merge.Streams(whole); len(got) != len(whole) || got[0] != whole[0] {
		t.Error("a single stream must pass through unchanged")
	}

	shards := shard(t, whole, 2)
	// A shard that was killed has no testRunFinished: the run failed.
	cut := shards[1][:len(shards[1])-1]
	merged, err := merge.Streams(shards[0], cut)
	if err != nil {
		t.Fatal(err)
	}
	last := merged[len(merged)-1]
	if last.TestRunFinished == nil || last.TestRunFinished.Success {
		t.Errorf("want a final unsuccessful testRunFinished, got %+v", last)
	}
}

// Streams that are not shards of one suite are refused, naming the
// streams and the difference.
func TestMergeRefusesStreamsOfDifferentSuites(t *testing.T) {
	whole := oracles.CCKStream(t, "minimal")
	other := oracles.CCKStream(t, "multiple-features")
	edit := func(s []*messages.Envelope, f func(e *messages.Envelope) *messages.Envelope) []*messages.Envelope {
		out := make([]*messages.Envelope, 0, len(s))
		for _, e := range s {
			if e = f(e); e != nil {
				out = append(out, e)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		second  func(a, b []*messages.Envelope) []*messages.Envelope
		wantErr string
	}{
		{"edited feature", func(a, _ []*messages.Envelope) []*messages.Envelope {
			return edit(a, func(e *messages.Envelope) *messages.Envelope {
				if e.Source != nil {
					cp := *e.Source
					cp.Data += "\n# edited"
					return &messages.Envelope{Source: &cp}
				}
				return e
			})
		}, "a.ndjson and b.ndjson are not shards of one suite: samples/minimal/minimal.feature has different text"},
		{"another suite", func(_, b []*messages.Envelope) []*messages.Envelope { return b },
			"a.ndjson and b.ndjson are not shards of one suite: samples/minimal/minimal.feature is only in a.ndjson; samples/multiple-features/multiple-features-1.feature is only in b.ndjson"},
		{"one more feature file", func(a, b []*messages.Envelope) []*messages.Envelope {
			extra := edit(b, func(e *messages.Envelope) *messages.Envelope {
				if e.Source != nil && strings.HasSuffix(e.Source.URI, "-2.feature") {
					return e
				}
				return nil
			})
			return append(extra, a...)
		}, "samples/multiple-features/multiple-features-2.feature is only in b.ndjson"},
		{"other step definitions", func(a, _ []*messages.Envelope) []*messages.Envelope {
			return edit(a, func(e *messages.Envelope) *messages.Envelope {
				if e.StepDefinition != nil {
					cp := *e.StepDefinition
					cp.Pattern.Source = "I have {int} cukes in my tummy"
					return &messages.Envelope{StepDefinition: &cp}
				}
				return e
			})
		}, `step definition "I have {int} cukes in my belly" (samples/minimal/minimal.ts:3) is only in a.ndjson; step definition "I have {int} cukes in my tummy" (samples/minimal/minimal.ts:3) is only in b.ndjson`},
		{"the same shard twice", func(a, _ []*messages.Envelope) []*messages.Envelope { return a },
			`b.ndjson: samples/minimal/minimal.feature:9 ("cukes") is also in a.ndjson: the shards of one run never share a test case (was one stream given twice?)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := shard(t, whole, 1)[0]
			b := tc.second(shard(t, whole, 1)[0], other)
			_, err := merge.Named([]string{"a.ndjson", "b.ndjson"}, [][]*messages.Envelope{a, b})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("got %v\nwant an error with %s", err, tc.wantErr)
			}
		})
	}
}

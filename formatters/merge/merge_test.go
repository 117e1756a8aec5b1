package merge_test

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/formatters/merge"
	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/messages"
)

var idKeys = map[string]bool{
	"id": true, "pickleId": true, "astNodeId": true, "astNodeIds": true, "pickleStepId": true, "hookId": true,
	"stepDefinitionIds": true, "testCaseId": true, "testCaseStartedId": true, "testStepId": true,
	"testRunStartedId": true, "testRunHookStartedId": true,
}

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
				if idKeys[k] {
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

// shard splits a stream into n shards the way `--shard i/n` runs would
// produce them: every shard repeats the sources, documents, pickles and
// definitions under its own ids, runs every n-th test case, and has its
// own testRunStarted/Finished; the test run hooks run in the first shard.
func shard(t *testing.T, envs []*messages.Envelope, n int) [][]*messages.Envelope {
	owner := map[string]int{} // testCase id, testCaseStarted id -> shard
	shards := make([][]*messages.Envelope, n)
	tc := 0
	for _, e := range envs {
		target := -1 // all shards
		switch {
		case e.TestCase != nil:
			owner[e.TestCase.ID] = tc % n
			tc++
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
		case e.TestRunHookStarted != nil, e.TestRunHookFinished != nil, e.Attachment != nil, e.Suggestion != nil:
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

// TestShardsMergeIntoTheWholeRun: the reports of merged shards equal the
// reports of the unsharded run.
func TestShardsMergeIntoTheWholeRun(t *testing.T) {
	for _, sample := range []string{"examples-tables", "rules", "hooks", "attachments", "retry", "undefined", "global-hooks", "multiple-features"} {
		t.Run(sample, func(t *testing.T) {
			whole := oracles.CCKStream(t, sample)
			merged, err := merge.Streams(shard(t, whole, 3)...)
			if err != nil {
				t.Fatal(err)
			}
			// usage-json lists the uses of a definition in run order for
			// equal durations, and shards run in another order: compare sorted.
			if want, got := sortedUsage(t, render(t, "usage-json", whole)), sortedUsage(t, render(t, "usage-json", merged)); want != got {
				t.Errorf("usage of the merged shards differs from the whole run's:\n--- whole\n%s\n--- merged\n%s", want, got)
			}
			for _, format := range []string{"junit", "summary", "snippets"} {
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

func sortedUsage(t *testing.T, s string) string {
	var usage []map[string]any
	if err := json.Unmarshal([]byte(s), &usage); err != nil {
		t.Fatal(err)
	}
	for _, u := range usage {
		m := u["matches"].([]any)
		sort.Slice(m, func(i, j int) bool {
			a, _ := json.Marshal(m[i])
			b, _ := json.Marshal(m[j])
			return string(a) < string(b)
		})
	}
	b, _ := json.MarshalIndent(usage, "", " ")
	return string(b)
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

	// Different text under one uri: not shards of one run.
	other := shard(t, whole, 2)[1]
	for i, e := range other {
		if e.Source != nil {
			cp := *e.Source
			cp.Data += "\n# edited"
			other[i] = &messages.Envelope{Source: &cp}
		}
	}
	if _, err := merge.Streams(shards[0], other); err == nil || !strings.Contains(err.Error(), "not shards of one run") {
		t.Errorf("got %v", err)
	}
}

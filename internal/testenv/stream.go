package testenv

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/messages"
)

// IDKeys are the keys of Cucumber Messages whose values are ids (or lists
// of ids).
var IDKeys = map[string]bool{
	"id": true, "pickleId": true, "astNodeId": true, "astNodeIds": true, "pickleStepId": true, "hookId": true,
	"stepDefinitionIds": true, "testCaseId": true, "testCaseStartedId": true, "testStepId": true,
	"testRunStartedId": true, "testRunHookStartedId": true,
}

// timeKeys are the keys whose values differ from run to run of the same
// suite: times, and the worker that ran a test case.
var timeKeys = map[string]bool{"timestamp": true, "duration": true, "workerId": true}

// NormalisedStream returns a stream as NDJSON with its ids renumbered in
// order of first appearance and its timestamps, durations and worker ids
// removed: two runs of the same suite are equal up to ids and times when
// their normalised streams are.
func NormalisedStream(tb testing.TB, envs []*messages.Envelope) string {
	tb.Helper()
	ids := map[string]string{}
	renumber := func(id string) string {
		if _, ok := ids[id]; !ok {
			ids[id] = strconv.Itoa(len(ids))
		}
		return ids[id]
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			// In key order, so that ids are numbered the same way in
			// both streams.
			for _, k := range slices.Sorted(maps.Keys(x)) {
				switch val := x[k]; {
				case timeKeys[k]:
					delete(x, k)
				case IDKeys[k]:
					switch id := val.(type) {
					case string:
						x[k] = renumber(id)
					case []any:
						for i := range id {
							if s, ok := id[i].(string); ok {
								id[i] = renumber(s)
							}
						}
					}
				default:
					x[k] = walk(val)
				}
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	var out strings.Builder
	for _, e := range envs {
		b, err := json.Marshal(e)
		if err != nil {
			tb.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			tb.Fatal(err)
		}
		b, _ = json.Marshal(walk(v))
		out.Write(b)
		out.WriteByte('\n')
	}
	return out.String()
}

package query

import (
	"math"

	"github.com/ferridriver/ferridriver/messages"
)

// Statuses lists the step statuses from least to most severe, the
// precedence every Cucumber implementation uses to summarise a test case.
var Statuses = []messages.TestStepResultStatus{
	messages.TestStepResultStatusUnknown,
	messages.TestStepResultStatusPassed,
	messages.TestStepResultStatusSkipped,
	messages.TestStepResultStatusPending,
	messages.TestStepResultStatusUndefined,
	messages.TestStepResultStatusAmbiguous,
	messages.TestStepResultStatusFailed,
}

// Ordinal returns the severity of a status (its index in Statuses), -1 for
// an unknown value.
func Ordinal(s messages.TestStepResultStatus) int {
	for i, v := range Statuses {
		if v == s {
			return i
		}
	}
	return -1
}

// Worst returns the most severe of the given statuses, UNKNOWN for none.
func Worst(statuses ...messages.TestStepResultStatus) messages.TestStepResultStatus {
	w := messages.TestStepResultStatusUnknown
	for _, s := range statuses {
		if Ordinal(s) > Ordinal(w) {
			w = s
		}
	}
	return w
}

// TimestampMillis converts a timestamp to milliseconds since the epoch with
// the same floating-point arithmetic as @cucumber/messages' TimeConversion,
// so that durations derived from it round exactly as in the official tools.
func TimestampMillis(t messages.Timestamp) float64 {
	return float64(float64(t.Seconds)*1000) + float64(t.Nanos)/1e6
}

// DurationMillis converts a duration to milliseconds as TimeConversion does.
func DurationMillis(d messages.Duration) float64 {
	return float64(float64(d.Seconds)*1000) + float64(d.Nanos)/1e6
}

// MillisToDuration converts milliseconds to a duration as TimeConversion
// does (floor of seconds, floor of the remaining nanoseconds).
func MillisToDuration(ms float64) messages.Duration {
	seconds := math.Floor(ms / 1000)
	nanos := math.Floor(float64(math.Mod(ms, 1000) * 1e6))
	return messages.Duration{Seconds: int64(seconds), Nanos: int64(nanos)}
}

// Between returns the duration from a to b computed as @cucumber/query does
// (through floating-point milliseconds).
func Between(a, b messages.Timestamp) messages.Duration {
	return MillisToDuration(TimestampMillis(b) - TimestampMillis(a))
}

// CompareTimestamps returns -1, 0 or 1 as a is before, equal to or after b.
func CompareTimestamps(a, b messages.Timestamp) int {
	switch {
	case a.Seconds < b.Seconds:
		return -1
	case a.Seconds > b.Seconds:
		return 1
	case a.Nanos < b.Nanos:
		return -1
	case a.Nanos > b.Nanos:
		return 1
	}
	return 0
}

// TestRunDuration returns the time from testRunStarted to testRunFinished,
// false if either is missing.
func (q *Query) TestRunDuration() (messages.Duration, bool) {
	if q.testRunStarted == nil || q.testRunFinished == nil {
		return messages.Duration{}, false
	}
	return Between(q.testRunStarted.Timestamp, q.testRunFinished.Timestamp), true
}

// TestCaseDuration returns the time from an attempt's start to its finish,
// false if it never finished.
func (q *Query) TestCaseDuration(tcs *messages.TestCaseStarted) (messages.Duration, bool) {
	f := q.tcfByTCSID[tcs.ID]
	if f == nil {
		return messages.Duration{}, false
	}
	return Between(tcs.Timestamp, f.Timestamp), true
}

// TestRunHookDuration returns how long a test run hook execution took,
// false if its start is unknown.
func (q *Query) TestRunHookDuration(f *messages.TestRunHookFinished) (messages.Duration, bool) {
	s := q.trhsByID[f.TestRunHookStartedID]
	if s == nil {
		return messages.Duration{}, false
	}
	return Between(s.Timestamp, f.Timestamp), true
}

package formatters

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/width"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

// usage and usage-json report, when the run ends, every step definition
// with the steps that used it and how long they took, the slowest (by mean
// duration) first, and unused definitions marked UNUSED: cucumber-js's
// `usage` (a table) and `usage-json` (the same data as JSON). The JSON's
// "code" is always "": the stream does not carry step definition source.
//
// Built-in steps nothing used are left out of both (the table says how
// many): a project uses a few of the library's many steps, and its own
// unused definitions are what the report is for.
func init() {
	Register("usage", func(o Options) (Formatter, error) {
		return newAtEnd(o.Out, "usage", func(q *query.Query) ([]byte, error) {
			entries, unusedBuiltin := stepUsage(q)
			return []byte(usageTable(entries, unusedBuiltin)), nil
		}), nil
	})
	Register("usage-json", func(o Options) (Formatter, error) {
		return newAtEnd(o.Out, "usage", func(q *query.Query) ([]byte, error) {
			entries, _ := stepUsage(q)
			return jsonStringify(entries, "  ")
		}), nil
	})
}

// builtinURIPrefix starts the source URI of the built-in library's
// definitions (jsbridge.LibraryScheme).
const builtinURIPrefix = "ferridriver:"

// The field order is the key order of cucumber-js's usage-json.
type (
	usageEntry struct {
		Matches      []usageMatch   `json:"matches"`
		Code         string         `json:"code"`
		Line         *int64         `json:"line,omitempty"`
		Pattern      string         `json:"pattern"`
		PatternType  string         `json:"patternType"`
		URI          string         `json:"uri"`
		MeanDuration *usageDuration `json:"meanDuration,omitempty"`
	}
	// usageDuration is a duration with the key order of the stream.
	usageDuration struct {
		Seconds int64 `json:"seconds"`
		Nanos   int64 `json:"nanos"`
	}
	usageMatch struct {
		Line     int64          `json:"line"`
		Text     string         `json:"text"`
		URI      string         `json:"uri"`
		Duration *usageDuration `json:"duration,omitempty"`
	}
)

// normalizedMillis sorts absent durations last, as cucumber-js does.
func normalizedMillis(d *usageDuration) float64 {
	if d == nil {
		return math.MinInt64
	}
	return d.millis()
}

func (d usageDuration) millis() float64 {
	return query.DurationMillis(messages.Duration{Seconds: d.Seconds, Nanos: d.Nanos})
}

// stepUsage collects the uses of every step definition over every attempt
// (retried ones too, as cucumber-js), without the built-in ones nothing
// used, which it counts.
func stepUsage(q *query.Query) ([]usageEntry, int) {
	entries := make([]usageEntry, 0, len(q.StepDefinitions()))
	byID := map[string]int{}
	for _, sd := range q.StepDefinitions() {
		e := usageEntry{Matches: []usageMatch{}, Pattern: sd.Pattern.Source, PatternType: "CucumberExpression", URI: sd.SourceReference.GetURI()}
		if sd.Pattern.Type == messages.StepDefinitionPatternTypeRegularExpression {
			e.PatternType = "RegularExpression"
		}
		if loc := sd.SourceReference.Location; loc != nil {
			line := loc.Line
			e.Line = &line
		}
		byID[sd.ID] = len(entries)
		entries = append(entries, e)
	}
	for _, tcs := range q.AllTestCaseStartedInStreamOrder() {
		tc, pickle := q.TestCaseOf(tcs), q.PickleOf(tcs)
		if tc == nil || pickle == nil {
			continue
		}
		for _, ts := range tc.TestSteps {
			if ts.PickleStepID == nil || len(ts.StepDefinitionIDs) != 1 {
				continue
			}
			i, ok := byID[ts.StepDefinitionIDs[0]]
			ps := q.PickleStep(*ts.PickleStepID)
			gs := q.StepOf(ps)
			if !ok || ps == nil || gs == nil {
				continue
			}
			m := usageMatch{Line: gs.Location.Line, Text: ps.Text, URI: pickle.URI}
			if r := q.StepResult(tcs.ID, ts.ID); r != nil {
				switch r.Status {
				case messages.TestStepResultStatusAmbiguous, messages.TestStepResultStatusSkipped, messages.TestStepResultStatusUndefined:
				default:
					m.Duration = &usageDuration{Seconds: r.Duration.Seconds, Nanos: r.Duration.Nanos}
				}
			}
			entries[i].Matches = append(entries[i].Matches, m)
		}
	}
	for i := range entries {
		e := &entries[i]
		sort.SliceStable(e.Matches, func(a, b int) bool {
			ma, mb := e.Matches[a], e.Matches[b]
			if ma.Duration == nil && mb.Duration == nil {
				return ma.Text < mb.Text
			}
			return normalizedMillis(ma.Duration) > normalizedMillis(mb.Duration)
		})
		total, n := 0.0, 0
		for _, m := range e.Matches {
			if m.Duration != nil {
				total += m.Duration.millis()
				n++
			}
		}
		if n > 0 {
			mean := query.MillisToDuration(total / float64(n))
			e.MeanDuration = &usageDuration{Seconds: mean.Seconds, Nanos: mean.Nanos}
		}
	}
	kept, unusedBuiltin := entries[:0], 0
	for _, e := range entries {
		if len(e.Matches) == 0 && strings.HasPrefix(e.URI, builtinURIPrefix) {
			unusedBuiltin++
			continue
		}
		kept = append(kept, e)
	}
	entries = kept
	sort.SliceStable(entries, func(a, b int) bool {
		return normalizedMillis(entries[a].MeanDuration) > normalizedMillis(entries[b].MeanDuration)
	})
	return entries, unusedBuiltin
}

func usageMillis(d *usageDuration) string {
	if d == nil {
		return "-"
	}
	return jsToFixed(d.millis(), 2) + "ms"
}

// usageTable renders the usage as cucumber-js's box-drawn table, then how
// many built-in steps went unused.
func usageTable(usage []usageEntry, unusedBuiltin int) string {
	if unusedBuiltin > 0 {
		note := fmt.Sprintf("%d built-in steps unused (not listed; `ferridriver steps --builtin` lists every one)\n", unusedBuiltin)
		if unusedBuiltin == 1 {
			note = "1 built-in step unused (not listed; `ferridriver steps --builtin` lists every one)\n"
		}
		if len(usage) == 0 {
			return note
		}
		return usageTable(usage, 0) + note
	}
	if len(usage) == 0 {
		return "No step definitions"
	}
	rows := [][3]string{{"Pattern / Text", "Duration", "Location"}}
	for _, e := range usage {
		pattern := e.Pattern
		if e.PatternType == "RegularExpression" {
			pattern = "/" + pattern + "/"
		}
		col1, col2 := []string{pattern}, []string{}
		switch {
		case len(e.Matches) == 0:
			col2 = append(col2, "UNUSED")
		default:
			col2 = append(col2, usageMillis(e.MeanDuration))
		}
		line := "undefined"
		if e.Line != nil {
			line = strconv.FormatInt(*e.Line, 10)
		}
		col3 := []string{e.URI + ":" + line}
		for i, m := range e.Matches {
			if i == 5 {
				break
			}
			col1 = append(col1, "  "+m.Text)
			col2 = append(col2, usageMillis(m.Duration))
			col3 = append(col3, m.URI+":"+strconv.FormatInt(m.Line, 10))
		}
		if len(e.Matches) > 5 {
			col1 = append(col1, fmt.Sprintf("  %d more", len(e.Matches)-5))
		}
		rows = append(rows, [3]string{strings.Join(col1, "\n"), strings.Join(col2, "\n"), strings.Join(col3, "\n")})
	}
	return boxTable(rows) + "\n"
}

// boxTable draws rows the way the npm package cli-table3 does by default:
// single-line box characters, one space of padding, a rule under every row.
func boxTable(rows [][3]string) string {
	var widths [3]int
	cells := make([][3][]string, len(rows))
	heights := make([]int, len(rows))
	for r, row := range rows {
		for c, cell := range row {
			lines := strings.Split(cell, "\n")
			cells[r][c] = lines
			if len(lines) > heights[r] {
				heights[r] = len(lines)
			}
			for _, l := range lines {
				if w := displayWidth(l) + 2; w > widths[c] {
					widths[c] = w
				}
			}
		}
	}
	rule := func(left, mid, right string) string {
		parts := make([]string, 3)
		for c, w := range widths {
			parts[c] = strings.Repeat("─", w)
		}
		return left + strings.Join(parts, mid) + right
	}
	var out []string
	out = append(out, rule("┌", "┬", "┐"))
	for r := range rows {
		if r > 0 {
			out = append(out, rule("├", "┼", "┤"))
		}
		for i := 0; i < heights[r]; i++ {
			line := "│"
			for c := range widths {
				text := ""
				if i < len(cells[r][c]) {
					text = cells[r][c][i]
				}
				line += " " + text + strings.Repeat(" ", widths[c]-2-displayWidth(text)) + " │"
			}
			out = append(out, line)
		}
	}
	out = append(out, rule("└", "┴", "┘"))
	return strings.Join(out, "\n")
}

// displayWidth is the number of terminal columns s takes: East Asian wide
// characters take two, combining marks none.
func displayWidth(s string) int {
	n := 0
	for _, r := range stripANSI(s) {
		switch {
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200b:
		case width.LookupRune(r).Kind() == width.EastAsianWide || width.LookupRune(r).Kind() == width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

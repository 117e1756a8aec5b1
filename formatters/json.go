package formatters

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("json", newJSON) }

// newJSON writes the legacy Cucumber JSON report of cucumber-js
// (features, elements, steps, hooks as hidden steps, embeddings in base64,
// durations in nanoseconds, match locations), which report tools such as
// multiple-cucumber-html-reporter read. It is written when the run ends.
//
// Where cucumber-js's output would not be valid against the cucumber-js
// schema of cucumber-json-schema we stay valid: a tag inherited from a Rule
// gets its line, a failed step without a `message` gets the exception's
// stack trace as error_message, and a step that never finished (an
// interrupted run) is "skipped" rather than "unknown".
func newJSON(o Options) (Formatter, error) {
	return newAtEnd(o.Out, "json report", func(q *query.Query) ([]byte, error) {
		return jsonStringify(cucumberJSON(q), "  ")
	}), nil
}

// The field order of these types is the key order cucumber-js writes.
type (
	jsonFeature struct {
		Description string        `json:"description"`
		Elements    []jsonElement `json:"elements"`
		ID          string        `json:"id"`
		Line        int64         `json:"line"`
		Keyword     string        `json:"keyword"`
		Name        string        `json:"name"`
		Tags        []jsonTag     `json:"tags"`
		URI         string        `json:"uri"`
	}
	jsonElement struct {
		Description string     `json:"description"`
		ID          string     `json:"id"`
		Keyword     string     `json:"keyword"`
		Line        int64      `json:"line"`
		Name        string     `json:"name"`
		Steps       []jsonStep `json:"steps"`
		Tags        []jsonTag  `json:"tags"`
		Type        string     `json:"type"`
	}
	jsonTag struct {
		Name string `json:"name"`
		Line int64  `json:"line"`
	}
	jsonStep struct {
		Result     jsonResult      `json:"result"`
		Arguments  *[]any          `json:"arguments,omitempty"`
		Keyword    string          `json:"keyword"`
		Line       *int64          `json:"line,omitempty"`
		Name       *string         `json:"name,omitempty"`
		Hidden     bool            `json:"hidden,omitempty"`
		Match      *jsonMatch      `json:"match,omitempty"`
		Embeddings []jsonEmbedding `json:"embeddings,omitempty"`
	}
	jsonResult struct {
		Status       string  `json:"status"`
		Duration     *int64  `json:"duration,omitempty"`
		ErrorMessage *string `json:"error_message,omitempty"`
	}
	jsonMatch struct {
		Location string `json:"location"`
	}
	jsonEmbedding struct {
		Data     string `json:"data"`
		MimeType string `json:"mime_type"`
	}
	jsonDataTable struct {
		Rows []jsonRow `json:"rows"`
	}
	jsonRow struct {
		Cells []string `json:"cells"`
	}
	jsonDocString struct {
		Content string `json:"content"`
		Line    int64  `json:"line"`
	}
)

// jsonID is cucumber-js's convertNameToId: spaces to dashes, lower case.
func jsonID(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, " ", "-"))
}

func cucumberJSON(q *query.Query) []jsonFeature {
	features := []jsonFeature{}
	index := map[string]int{}
	for _, tcs := range q.AllTestCaseStartedInStreamOrder() {
		if !q.IsFinalAttempt(tcs) {
			continue
		}
		tc, pickle := q.TestCaseOf(tcs), q.PickleOf(tcs)
		if tc == nil || pickle == nil {
			continue
		}
		doc := q.GherkinDocument(pickle.URI)
		if doc == nil || doc.Feature == nil {
			continue
		}
		i, ok := index[pickle.URI]
		if !ok {
			i = len(features)
			index[pickle.URI] = i
			feat := doc.Feature
			tags := []jsonTag{}
			for _, t := range feat.Tags {
				tags = append(tags, jsonTag{Name: t.Name, Line: t.Location.Line})
			}
			features = append(features, jsonFeature{
				Description: feat.Description, Elements: []jsonElement{}, ID: jsonID(feat.Name),
				Line: feat.Location.Line, Keyword: feat.Keyword, Name: feat.Name, Tags: tags, URI: pickle.URI,
			})
		}
		features[i].Elements = append(features[i].Elements, jsonScenario(q, doc.Feature, tcs, tc, pickle))
	}
	return features
}

func jsonScenario(q *query.Query, feat *messages.Feature, tcs *messages.TestCaseStarted, tc *messages.TestCase, pickle *messages.Pickle) jsonElement {
	var scenario *messages.Scenario
	if len(pickle.AstNodeIDs) > 0 {
		scenario = q.Scenario(pickle.AstNodeIDs[0])
	}
	el := jsonElement{Name: pickle.Name, Line: q.ScenarioLine(pickle), Steps: []jsonStep{}, Tags: []jsonTag{}, Type: "scenario"}
	parts := []string{jsonID(feat.Name)}
	if scenario != nil {
		el.Description, el.Keyword = scenario.Description, scenario.Keyword
		if rule := q.RuleOfScenario(scenario.ID); rule != nil {
			parts = append(parts, jsonID(rule.Name))
		}
	}
	el.ID = strings.Join(append(parts, jsonID(pickle.Name)), ";")

	for _, pt := range pickle.Tags {
		el.Tags = append(el.Tags, jsonTag{Name: pt.Name, Line: tagLine(q, feat, scenario, pt.AstNodeID)})
	}

	beforeHook := true
	for _, ts := range tc.TestSteps {
		beforeHook = beforeHook && ts.PickleStepID == nil
		el.Steps = append(el.Steps, jsonTestStep(q, tcs, ts, beforeHook))
	}
	return el
}

// tagLine finds the line of the tag a pickle tag comes from.
func tagLine(q *query.Query, feat *messages.Feature, scenario *messages.Scenario, astNodeID string) int64 {
	find := func(tags []*messages.Tag) (int64, bool) {
		for _, t := range tags {
			if t.ID == astNodeID {
				return t.Location.Line, true
			}
		}
		return 0, false
	}
	if l, ok := find(feat.Tags); ok {
		return l
	}
	if scenario != nil {
		if l, ok := find(scenario.Tags); ok {
			return l
		}
		for _, ex := range scenario.Examples {
			if l, ok := find(ex.Tags); ok {
				return l
			}
		}
		if rule := q.RuleOfScenario(scenario.ID); rule != nil {
			if l, ok := find(rule.Tags); ok {
				return l
			}
		}
	}
	return 0
}

func jsonTestStep(q *query.Query, tcs *messages.TestCaseStarted, ts *messages.TestStep, beforeHook bool) jsonStep {
	var s jsonStep
	res := q.StepResult(tcs.ID, ts.ID)
	if res == nil {
		// Never finished: the run was interrupted before this step ended.
		zero := int64(0)
		s.Result = jsonResult{Status: "skipped", Duration: &zero}
	} else {
		ns := res.Duration.Seconds*1_000_000_000 + res.Duration.Nanos
		s.Result = jsonResult{Status: strings.ToLower(string(res.Status)), Duration: &ns}
		if res.Status == messages.TestStepResultStatusFailed {
			msg := res.GetMessage()
			if msg == "" && res.Exception != nil {
				msg = res.Exception.GetStackTrace()
				if msg == "" {
					msg = res.Exception.GetMessage()
				}
			}
			if msg != "" || res.Message != nil {
				s.Result.ErrorMessage = &msg
			}
		}
	}
	if ts.PickleStepID != nil {
		ps := q.PickleStep(*ts.PickleStepID)
		gs := q.StepOf(ps)
		args := []any{}
		if ps != nil {
			args = jsonStepArguments(ps.Argument, gs)
			text := ps.Text
			s.Name = &text
		}
		s.Arguments = &args
		if gs != nil {
			s.Keyword = gs.Keyword
			line := gs.Location.Line
			s.Line = &line
		}
	} else {
		s.Keyword, s.Hidden = "After", true
		if beforeHook {
			s.Keyword = "Before"
		}
	}
	if sd := q.UnambiguousStepDefinition(ts); sd != nil && sd.SourceReference.Location != nil {
		s.Match = &jsonMatch{Location: fmt.Sprintf("%s:%d", sd.SourceReference.GetURI(), sd.SourceReference.Location.Line)}
	}
	for _, a := range q.Attachments(tcs.ID, ts.ID) {
		data := a.Body
		if a.ContentEncoding == messages.AttachmentContentEncodingIdentity {
			data = base64.StdEncoding.EncodeToString([]byte(a.Body))
		}
		s.Embeddings = append(s.Embeddings, jsonEmbedding{Data: data, MimeType: a.MediaType})
	}
	return s
}

// jsonStepArguments renders a data table as {rows:[{cells}]} and a doc
// string as {content, line}.
func jsonStepArguments(a *messages.PickleStepArgument, gs *messages.Step) []any {
	out := []any{}
	if a == nil {
		return out
	}
	if a.DataTable != nil {
		t := jsonDataTable{Rows: []jsonRow{}}
		for _, r := range a.DataTable.Rows {
			cells := []string{}
			for _, c := range r.Cells {
				cells = append(cells, c.Value)
			}
			t.Rows = append(t.Rows, jsonRow{Cells: cells})
		}
		out = append(out, t)
	}
	if a.DocString != nil {
		line := int64(0)
		if gs != nil && gs.DocString != nil {
			line = gs.DocString.Location.Line
		}
		out = append(out, jsonDocString{Content: a.DocString.Content, Line: line})
	}
	return out
}

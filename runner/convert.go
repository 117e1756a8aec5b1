package runner

import (
	gm "github.com/cucumber/messages/go/v24"

	"github.com/ferridriver/ferridriver/messages"
)

// The Gherkin library builds its documents and pickles with the types of an
// older protocol (messages v24). These functions copy them into ours field
// by field: the shapes of these messages did not change, and a direct copy
// is several times cheaper than a JSON round trip on large suites.

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func convLocation(l *gm.Location) messages.Location {
	if l == nil {
		return messages.Location{}
	}
	out := messages.Location{Line: l.Line}
	if l.Column != 0 {
		out.Column = messages.Ptr(l.Column)
	}
	return out
}

func convDocument(d *gm.GherkinDocument) *messages.GherkinDocument {
	out := &messages.GherkinDocument{URI: optString(d.Uri), Comments: make([]*messages.Comment, len(d.Comments))}
	for i, c := range d.Comments {
		out.Comments[i] = &messages.Comment{Location: convLocation(c.Location), Text: c.Text}
	}
	if f := d.Feature; f != nil {
		out.Feature = &messages.Feature{
			Location: convLocation(f.Location), Tags: convTags(f.Tags), Language: f.Language, Keyword: f.Keyword,
			Name: f.Name, Description: f.Description, Children: make([]*messages.FeatureChild, len(f.Children)),
		}
		for i, c := range f.Children {
			fc := &messages.FeatureChild{Background: convBackground(c.Background), Scenario: convScenario(c.Scenario)}
			if r := c.Rule; r != nil {
				rule := &messages.Rule{
					Location: convLocation(r.Location), Tags: convTags(r.Tags), Keyword: r.Keyword, Name: r.Name,
					Description: r.Description, Children: make([]*messages.RuleChild, len(r.Children)), ID: r.Id,
				}
				for j, rc := range r.Children {
					rule.Children[j] = &messages.RuleChild{Background: convBackground(rc.Background), Scenario: convScenario(rc.Scenario)}
				}
				fc.Rule = rule
			}
			out.Feature.Children[i] = fc
		}
	}
	return out
}

func convTags(tags []*gm.Tag) []*messages.Tag {
	out := make([]*messages.Tag, len(tags))
	for i, t := range tags {
		out[i] = &messages.Tag{Location: convLocation(t.Location), Name: t.Name, ID: t.Id}
	}
	return out
}

func convBackground(b *gm.Background) *messages.Background {
	if b == nil {
		return nil
	}
	return &messages.Background{Location: convLocation(b.Location), Keyword: b.Keyword, Name: b.Name, Description: b.Description, Steps: convSteps(b.Steps), ID: b.Id}
}

func convScenario(s *gm.Scenario) *messages.Scenario {
	if s == nil {
		return nil
	}
	out := &messages.Scenario{
		Location: convLocation(s.Location), Tags: convTags(s.Tags), Keyword: s.Keyword, Name: s.Name,
		Description: s.Description, Steps: convSteps(s.Steps), Examples: make([]*messages.Examples, len(s.Examples)), ID: s.Id,
	}
	for i, e := range s.Examples {
		ex := &messages.Examples{
			Location: convLocation(e.Location), Tags: convTags(e.Tags), Keyword: e.Keyword, Name: e.Name,
			Description: e.Description, TableBody: convRows(e.TableBody), ID: e.Id,
		}
		if e.TableHeader != nil {
			ex.TableHeader = convRow(e.TableHeader)
		}
		out.Examples[i] = ex
	}
	return out
}

func convSteps(steps []*gm.Step) []*messages.Step {
	out := make([]*messages.Step, len(steps))
	for i, s := range steps {
		st := &messages.Step{Location: convLocation(s.Location), Keyword: s.Keyword, Text: s.Text, ID: s.Id}
		if s.KeywordType != "" {
			st.KeywordType = messages.Ptr(messages.StepKeywordType(s.KeywordType))
		}
		if d := s.DocString; d != nil {
			st.DocString = &messages.DocString{Location: convLocation(d.Location), MediaType: optString(d.MediaType), Content: d.Content, Delimiter: d.Delimiter}
		}
		if t := s.DataTable; t != nil {
			st.DataTable = &messages.DataTable{Location: convLocation(t.Location), Rows: convRows(t.Rows)}
		}
		out[i] = st
	}
	return out
}

func convRows(rows []*gm.TableRow) []*messages.TableRow {
	out := make([]*messages.TableRow, len(rows))
	for i, r := range rows {
		out[i] = convRow(r)
	}
	return out
}

func convRow(r *gm.TableRow) *messages.TableRow {
	row := &messages.TableRow{Location: convLocation(r.Location), Cells: make([]*messages.TableCell, len(r.Cells)), ID: r.Id}
	for j, c := range r.Cells {
		row.Cells[j] = &messages.TableCell{Location: convLocation(c.Location), Value: c.Value}
	}
	return row
}

func convPickle(p *gm.Pickle) *messages.Pickle {
	out := &messages.Pickle{
		ID: p.Id, URI: p.Uri, Name: p.Name, Language: p.Language,
		Steps: make([]*messages.PickleStep, len(p.Steps)), Tags: make([]*messages.PickleTag, len(p.Tags)),
		AstNodeIDs: p.AstNodeIds,
	}
	for i, t := range p.Tags {
		out.Tags[i] = &messages.PickleTag{Name: t.Name, AstNodeID: t.AstNodeId}
	}
	for i, s := range p.Steps {
		ps := &messages.PickleStep{AstNodeIDs: s.AstNodeIds, ID: s.Id, Text: s.Text}
		if s.Type != "" {
			ps.Type = messages.Ptr(messages.PickleStepType(s.Type))
		}
		if a := s.Argument; a != nil {
			ps.Argument = &messages.PickleStepArgument{}
			if d := a.DocString; d != nil {
				ps.Argument.DocString = &messages.PickleDocString{MediaType: optString(d.MediaType), Content: d.Content}
			}
			if t := a.DataTable; t != nil {
				table := &messages.PickleTable{Rows: make([]*messages.PickleTableRow, len(t.Rows))}
				for j, r := range t.Rows {
					row := &messages.PickleTableRow{Cells: make([]*messages.PickleTableCell, len(r.Cells))}
					for k, c := range r.Cells {
						row.Cells[k] = &messages.PickleTableCell{Value: c.Value}
					}
					table.Rows[j] = row
				}
				ps.Argument.DataTable = table
			}
		}
		out.Steps[i] = ps
	}
	return out
}

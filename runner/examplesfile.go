package runner

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	pathpkg "path"
	"path/filepath"
	"strings"

	gmessages "github.com/cucumber/messages/go/v24"
)

// Examples from a data file: an Examples block tagged @from:PATH takes its
// rows from a CSV or JSON file (Karate's outlines over a data file),
// resolved right after parsing, before pickles are compiled, so the
// pickles, the reports and --dry-run show every row:
//
//	Scenario Outline: <user> logs in
//	  When I fill "User" with "<user>"
//	  ...
//	  @from:data/users.csv
//	  Examples:
//
// PATH is relative to the feature file's directory. A CSV file's first
// record is the header; a JSON file is an array of objects, whose keys are
// the columns (in order of first appearance; a missing key is an empty
// cell, a number or boolean its JSON text).

// examplesFileTag is the tag prefix that names an Examples block's file.
const examplesFileTag = "@from:"

// expandExamplesFiles fills the table of every Examples block of doc that
// names a data file. Errors name the tag's place in the feature, and the
// data file's line where the problem is in it.
func expandExamplesFiles(doc *gmessages.GherkinDocument, path, uri string) error {
	if doc.Feature == nil {
		return nil
	}
	var err error
	visit := func(s *gmessages.Scenario) {
		for _, ex := range s.Examples {
			if err == nil {
				err = expandExamples(ex, path, uri)
			}
		}
	}
	for _, c := range doc.Feature.Children {
		switch {
		case c.Scenario != nil:
			visit(c.Scenario)
		case c.Rule != nil:
			for _, rc := range c.Rule.Children {
				if rc.Scenario != nil {
					visit(rc.Scenario)
				}
			}
		}
	}
	return err
}

func expandExamples(ex *gmessages.Examples, path, uri string) error {
	var tag *gmessages.Tag
	for _, t := range ex.Tags {
		if strings.HasPrefix(t.Name, examplesFileTag) {
			if tag != nil {
				return tagError(uri, t, "an Examples block takes its rows from one file (it is also tagged "+tag.Name+")")
			}
			tag = t
		}
	}
	if tag == nil {
		return nil
	}
	rel := strings.TrimPrefix(tag.Name, examplesFileTag)
	if rel == "" {
		return tagError(uri, tag, "@from: names a CSV or JSON file, e.g. @from:data/users.csv")
	}
	if ex.TableHeader != nil {
		return tagError(uri, tag, fmt.Sprintf("this Examples block takes its rows from %s: remove its table", rel))
	}
	file, shown := rel, rel
	if !filepath.IsAbs(file) {
		file = filepath.Join(filepath.Dir(path), filepath.FromSlash(rel))
		shown = pathpkg.Join(pathpkg.Dir(uri), rel)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return tagError(uri, tag, fmt.Sprintf("%s does not exist (looked for %s: the path is relative to the feature file's directory)", rel, shown))
		}
		return tagError(uri, tag, err.Error())
	}
	var header []string
	var rows [][]string
	switch strings.ToLower(filepath.Ext(file)) {
	case ".csv":
		header, rows, err = readCSVExamples(data)
	case ".json":
		header, rows, err = readJSONExamples(data)
	default:
		return tagError(uri, tag, fmt.Sprintf("%s: examples are read from a .csv or .json file", rel))
	}
	if err != nil {
		return tagError(uri, tag, fmt.Sprintf("%s: %v", rel, err))
	}
	if len(header) == 0 {
		return tagError(uri, tag, rel+": the file has no columns")
	}
	// Every row has the place of the tag: a row has no line of its own in
	// the feature, and `file:line` of the tag runs them all.
	row := func(values []string) *gmessages.TableRow {
		r := &gmessages.TableRow{Location: &gmessages.Location{Line: tag.Location.Line, Column: tag.Location.Column}, Id: newID()}
		for _, v := range values {
			r.Cells = append(r.Cells, &gmessages.TableCell{Location: &gmessages.Location{Line: tag.Location.Line, Column: tag.Location.Column}, Value: v})
		}
		return r
	}
	ex.TableHeader = row(header)
	ex.TableBody = make([]*gmessages.TableRow, 0, len(rows))
	for _, r := range rows {
		ex.TableBody = append(ex.TableBody, row(r))
	}
	return nil
}

func tagError(uri string, t *gmessages.Tag, msg string) error {
	return &ParseError{URI: uri, Line: int(t.Location.Line), Column: int(t.Location.Column), Message: t.Name + ": " + msg}
}

// readCSVExamples reads a CSV file: the header, then one row per record.
func readCSVExamples(data []byte) ([]string, [][]string, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	records, err := r.ReadAll()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, nil, fmt.Errorf("line %d, column %d: %v", pe.Line, pe.Column, pe.Err)
		}
		return nil, nil, err
	}
	if len(records) == 0 {
		return nil, nil, errors.New("the file is empty: its first line names the columns")
	}
	return records[0], records[1:], nil
}

// readJSONExamples reads a JSON array of objects.
func readJSONExamples(data []byte) ([]string, [][]string, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")) + 1
			return nil, nil, fmt.Errorf("line %d: %v", line, err)
		}
		return nil, nil, fmt.Errorf("expected an array of objects, one per row: %v", err)
	}
	var header []string
	index := map[string]int{}
	var objects []map[string]json.RawMessage
	for i, it := range items {
		dec := json.NewDecoder(bytes.NewReader(it))
		tok, err := dec.Token()
		if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
			return nil, nil, fmt.Errorf("element %d is not an object: %s", i, truncate(string(it), 40))
		}
		obj := map[string]json.RawMessage{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, nil, fmt.Errorf("element %d: %v", i, err)
			}
			k := kt.(string)
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, nil, fmt.Errorf("element %d: %v", i, err)
			}
			if _, seen := index[k]; !seen {
				index[k] = len(header)
				header = append(header, k)
			}
			obj[k] = v
		}
		objects = append(objects, obj)
	}
	rows := make([][]string, len(objects))
	for i, obj := range objects {
		row := make([]string, len(header))
		for k, v := range obj {
			row[index[k]] = cellText(v)
		}
		rows[i] = row
	}
	return header, rows, nil
}

// cellText is a JSON value as a table cell: a string as it is, null as an
// empty cell, anything else as its compact JSON.
func cellText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	t := strings.TrimSpace(string(v))
	if t == "null" {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) == nil {
		return buf.String()
	}
	return t
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

package runner

import (
	"regexp"
	"sort"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v32"
	gmessages "github.com/cucumber/messages/go/v24"
)

// Markdown with Gherkin (MDG, *.feature.md): the official Go Gherkin module
// only reads plain Gherkin, so this token matcher reads the Markdown form
// with the rules of the JavaScript parser's GherkinInMarkdownTokenMatcher,
// which cucumber-js uses:
//
//   - "# Feature:", "## Rule:", "### Scenario:"... are headers (# to ######);
//     the first line that is not one still starts the feature;
//   - steps are bullet list items ("* Given ...", "- When ..."); "*" alone
//     is a bullet, never a step keyword;
//   - tags are code spans: `@tag`;
//   - doc strings are fenced code blocks (``` with an optional media type);
//   - data tables and examples are Markdown tables indented 2 to 5 spaces;
//     their "| --- |" separator rows are skipped; unindented tables are text;
//   - any other line is prose, ignored (it is a description only where the
//     grammar takes one right after a skipped table separator, as in JS);
//   - no "# language:" header: the language comes from the configuration.
//
// The matcher keeps the JavaScript matcher's side effects (MatchEmpty tries
// the other matchers, which may update the matcher's state), so that both
// parsers produce the same document.
type markdownMatcher struct {
	std                gherkin.Matcher // table cells, parsed as plain Gherkin does
	lang               string
	dialect            *gherkin.Dialect
	stepKeywords       []string
	keywordTypes       map[string][]gmessages.StepKeywordType
	docStringSep       *regexp.Regexp // the separator that opens or closes a doc string
	indentToRemove     int
	matchedFeatureLine bool
	titleREs           map[string]*regexp.Regexp
}

var (
	mdDefaultDocStringSep = regexp.MustCompile("^(```[`]*)(.*)")
	mdTableRowRE          = regexp.MustCompile(`^\s\s\s?\s?\s?\|`)
	mdTableSepCellRE      = regexp.MustCompile(`^:?-+:?$`)
	mdTagRE               = regexp.MustCompile("`(@[^`]+)`")
)

const (
	mdBullet = `^(\s*[*+-]\s*)`
	mdHeader = `^(#{1,6}\s)`
)

func newMarkdownMatcher(language string) *markdownMatcher {
	d := gherkin.DialectsBuiltin().GetDialect(language)
	m := &markdownMatcher{
		std:          gherkin.NewLanguageMatcher(gherkin.DialectsBuiltin(), language),
		lang:         language,
		dialect:      d,
		keywordTypes: map[string][]gmessages.StepKeywordType{},
		docStringSep: mdDefaultDocStringSep,
		titleREs:     map[string]*regexp.Regexp{},
	}
	seen := map[string]bool{}
	for _, kind := range []struct {
		name string
		typ  gmessages.StepKeywordType
	}{
		{"given", gmessages.StepKeywordType_CONTEXT},
		{"when", gmessages.StepKeywordType_ACTION},
		{"then", gmessages.StepKeywordType_OUTCOME},
		{"and", gmessages.StepKeywordType_CONJUNCTION},
		{"but", gmessages.StepKeywordType_CONJUNCTION},
	} {
		for _, k := range d.Keywords[kind.name] {
			m.keywordTypes[k] = append(m.keywordTypes[k], kind.typ)
			if k != "* " && !seen[k] {
				seen[k] = true
				m.stepKeywords = append(m.stepKeywords, k)
			}
		}
	}
	// "And" and "But" share a type; a keyword listed under two kinds
	// (e.g. "* ") is of unknown type.
	for k, ts := range m.keywordTypes {
		if len(ts) == 2 && ts[0] == gmessages.StepKeywordType_CONJUNCTION && ts[1] == gmessages.StepKeywordType_CONJUNCTION {
			m.keywordTypes[k] = ts[:1]
		}
	}
	// Longest first, so that a keyword is not matched by its prefix.
	sort.SliceStable(m.stepKeywords, func(i, j int) bool {
		return len([]rune(m.stepKeywords[i])) > len([]rune(m.stepKeywords[j]))
	})
	return m
}

// Reset implements gherkin.Matcher.
func (m *markdownMatcher) Reset() {
	m.docStringSep = mdDefaultDocStringSep
}

func (m *markdownMatcher) token(line *gherkin.Line, typ gherkin.TokenType, indent int) *gherkin.Token {
	return &gherkin.Token{
		Type:           typ,
		GherkinDialect: m.lang,
		Location:       &gherkin.Location{Line: line.LineNumber, Column: indent + 1},
	}
}

// MatchLanguage implements gherkin.Matcher: Markdown has no language header.
func (m *markdownMatcher) MatchLanguage(*gherkin.Line) (bool, *gherkin.Token, error) {
	return false, nil, nil
}

// MatchEmpty implements gherkin.Matcher: blank lines, and every line no
// other token type takes (prose between the Gherkin parts).
func (m *markdownMatcher) MatchEmpty(line *gherkin.Line) (bool, *gherkin.Token, error) {
	result := line.IsEmpty()
	matched := false
	for _, f := range []func(*gherkin.Line) (bool, *gherkin.Token, error){
		m.MatchTagLine, m.MatchFeatureLine, m.MatchScenarioLine, m.MatchBackgroundLine,
		m.MatchExamplesLine, m.MatchRuleLine, m.MatchTableRow, m.MatchComment,
		m.MatchLanguage, m.MatchDocStringSeparator, m.MatchEOF, m.MatchStepLine,
	} {
		if ok, _, _ := f(line); ok {
			matched = true
			break
		}
	}
	if !result && !matched {
		result = true
	}
	if !result {
		return false, nil, nil
	}
	return true, m.token(line, gherkin.TokenTypeEmpty, line.Indent()), nil
}

// MatchOther implements gherkin.Matcher.
func (m *markdownMatcher) MatchOther(line *gherkin.Line) (bool, *gherkin.Token, error) {
	t := m.token(line, gherkin.TokenTypeOther, line.Indent())
	if m.indentToRemove > line.Indent() {
		t.Text = line.TrimmedLineText
	} else {
		t.Text = line.LineText[m.indentToRemove:]
	}
	return true, t, nil
}

// MatchComment implements gherkin.Matcher: a Markdown table separator row
// ("| --- | :-: |") is skipped. Like the JavaScript matcher, the token has
// no type, so it is not reported as a comment.
func (m *markdownMatcher) MatchComment(line *gherkin.Line) (bool, *gherkin.Token, error) {
	if !line.StartsWith("|") || !m.isTableSeparator(line) {
		return false, nil, nil
	}
	return true, m.token(line, gherkin.TokenTypeNone, line.Indent()), nil
}

func (m *markdownMatcher) isTableSeparator(line *gherkin.Line) bool {
	ok, t, _ := m.std.MatchTableRow(line)
	if !ok {
		return false
	}
	for _, c := range t.Items {
		if mdTableSepCellRE.MatchString(c.Text) {
			return true
		}
	}
	return false
}

// MatchDocStringSeparator implements gherkin.Matcher: a fenced code block.
func (m *markdownMatcher) MatchDocStringSeparator(line *gherkin.Line) (bool, *gherkin.Token, error) {
	sm := m.docStringSep.FindStringSubmatch(line.TrimmedLineText)
	if sm == nil || sm[1] == "" {
		return false, nil, nil
	}
	sep := sm[1]
	mediaType := ""
	if len(sm) > 2 {
		mediaType = sm[2]
	}
	if m.docStringSep == mdDefaultDocStringSep {
		m.docStringSep = regexp.MustCompile("^(" + regexp.QuoteMeta(sep) + ")$")
		m.indentToRemove = line.Indent()
	} else {
		m.docStringSep = mdDefaultDocStringSep
	}
	t := m.token(line, gherkin.TokenTypeDocStringSeparator, line.Indent())
	t.Keyword = sep
	t.Text = mediaType
	return true, t, nil
}

// MatchEOF implements gherkin.Matcher.
func (m *markdownMatcher) MatchEOF(line *gherkin.Line) (bool, *gherkin.Token, error) {
	if !line.IsEof() {
		return false, nil, nil
	}
	return true, m.token(line, gherkin.TokenTypeEOF, line.Indent()), nil
}

// MatchFeatureLine implements gherkin.Matcher: "# Feature: name", or else
// the first line that gets here.
func (m *markdownMatcher) MatchFeatureLine(line *gherkin.Line) (bool, *gherkin.Token, error) {
	if m.matchedFeatureLine {
		return false, nil, nil
	}
	ok, t, _ := m.matchTitleLine(line, mdHeader, m.dialect.FeatureKeywords(), ":", gherkin.TokenTypeFeatureLine)
	if !ok {
		t = m.token(line, gherkin.TokenTypeFeatureLine, line.Indent())
		t.Text = line.TrimmedLineText
		ok = true
	}
	m.matchedFeatureLine = true
	return ok, t, nil
}

// MatchBackgroundLine implements gherkin.Matcher.
func (m *markdownMatcher) MatchBackgroundLine(line *gherkin.Line) (bool, *gherkin.Token, error) {
	return m.matchTitleLine(line, mdHeader, m.dialect.BackgroundKeywords(), ":", gherkin.TokenTypeBackgroundLine)
}

// MatchRuleLine implements gherkin.Matcher.
func (m *markdownMatcher) MatchRuleLine(line *gherkin.Line) (bool, *gherkin.Token, error) {
	return m.matchTitleLine(line, mdHeader, m.dialect.RuleKeywords(), ":", gherkin.TokenTypeRuleLine)
}

// MatchScenarioLine implements gherkin.Matcher.
func (m *markdownMatcher) MatchScenarioLine(line *gherkin.Line) (bool, *gherkin.Token, error) {
	if ok, t, err := m.matchTitleLine(line, mdHeader, m.dialect.ScenarioKeywords(), ":", gherkin.TokenTypeScenarioLine); ok {
		return ok, t, err
	}
	return m.matchTitleLine(line, mdHeader, m.dialect.ScenarioOutlineKeywords(), ":", gherkin.TokenTypeScenarioLine)
}

// MatchExamplesLine implements gherkin.Matcher.
func (m *markdownMatcher) MatchExamplesLine(line *gherkin.Line) (bool, *gherkin.Token, error) {
	return m.matchTitleLine(line, mdHeader, m.dialect.ExamplesKeywords(), ":", gherkin.TokenTypeExamplesLine)
}

// MatchStepLine implements gherkin.Matcher: a bullet item starting with a
// step keyword.
func (m *markdownMatcher) MatchStepLine(line *gherkin.Line) (bool, *gherkin.Token, error) {
	return m.matchTitleLine(line, mdBullet, m.stepKeywords, "", gherkin.TokenTypeStepLine)
}

func (m *markdownMatcher) matchTitleLine(line *gherkin.Line, prefix string, keywords []string, suffix string, typ gherkin.TokenType) (bool, *gherkin.Token, error) {
	key := prefix + "\x00" + strings.Join(keywords, "\x00") + "\x00" + suffix
	re, ok := m.titleREs[key]
	if !ok {
		alts := make([]string, len(keywords))
		for i, k := range keywords {
			alts[i] = regexp.QuoteMeta(k)
		}
		re = regexp.MustCompile(prefix + "(" + strings.Join(alts, "|") + ")" + regexp.QuoteMeta(suffix) + "(.*)")
		m.titleREs[key] = re
	}
	sm := re.FindStringSubmatch(line.TrimmedLineText)
	if sm == nil {
		return false, nil, nil
	}
	t := m.token(line, typ, line.Indent()+len([]rune(sm[1])))
	t.Keyword = sm[2]
	if ts, ok := m.keywordTypes[sm[2]]; ok {
		if len(ts) > 1 {
			t.KeywordType = gmessages.StepKeywordType_UNKNOWN
		} else {
			t.KeywordType = ts[0]
		}
	}
	t.Text = strings.TrimSpace(sm[3])
	return true, t, nil
}

// MatchTableRow implements gherkin.Matcher: a table indented 2 to 5
// spaces, but not its separator row.
func (m *markdownMatcher) MatchTableRow(line *gherkin.Line) (bool, *gherkin.Token, error) {
	if !mdTableRowRE.MatchString(line.LineText) || m.isTableSeparator(line) {
		return false, nil, nil
	}
	ok, t, err := m.std.MatchTableRow(line)
	if ok {
		t.GherkinDialect = m.lang
	}
	return ok, t, err
}

// MatchTagLine implements gherkin.Matcher: tags are code spans, `@tag`.
func (m *markdownMatcher) MatchTagLine(line *gherkin.Line) (bool, *gherkin.Token, error) {
	var items []*gherkin.LineSpan
	for _, loc := range mdTagRE.FindAllStringSubmatchIndex(line.TrimmedLineText, -1) {
		items = append(items, &gherkin.LineSpan{
			Column: line.Indent() + len([]rune(line.TrimmedLineText[:loc[0]])) + 2,
			Text:   line.TrimmedLineText[loc[2]:loc[3]],
		})
	}
	if len(items) == 0 {
		return false, nil, nil
	}
	t := m.token(line, gherkin.TokenTypeTagLine, line.Indent())
	t.Items = items
	return true, t, nil
}

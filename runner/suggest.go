package runner

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// Suggestion is a built-in step that comes close to an undefined step.
type Suggestion struct {
	Def *jsbridge.StepDef
	// Example is the definition's example closest to the step, as written
	// in the library (with its keyword); the keyword and expression when
	// the definition has no example.
	Example string
	// Similarity is in [0, 1]; 1 is the same words in the same order.
	Similarity float64
}

const (
	// maxSuggestions is how many built-in steps an undefined step's
	// suggestion names.
	maxSuggestions = 3
	// minSimilarity keeps unrelated steps out: below it, a suggestion
	// would be noise.
	minSimilarity = 0.45
)

// closestBuiltins ranks the built-in step definitions by how close their
// expression or one of their examples is to text, with the parameters
// abstracted: quoted text and numbers in the step stand for {string} and
// {int} in an expression, so `I clik "Save"` comes close to
// `I click {string}`. The measure is an edit distance over words (a typo
// costs less than another word, small words like "the" less than others),
// taken on the step as written and on its usual paraphrases in the
// library's words ("I should see X" is "I expect the page to contain the
// text X"); a step that checks something (outcome: a Then step, or words
// such as "should", "see", "is shown") ranks the library's checks above
// its actions. The example shown carries the step's own arguments.
func (m *matcher) closestBuiltins(text string, outcome bool) []Suggestion {
	key := text
	if outcome {
		key = "\x00then " + text
	}
	m.mu.Lock()
	if r, ok := m.suggestions[key]; ok {
		m.mu.Unlock()
		return r
	}
	m.mu.Unlock()
	m.builtinOnce.Do(m.tokenizeBuiltins)
	variants := [][]string{textTokens(text)}
	for _, p := range paraphrase(text) {
		variants = append(variants, textTokens(p))
	}
	checks := outcome || readsAsCheck(variants[0])
	var out []Suggestion
	for _, b := range m.builtins {
		best := Suggestion{Def: b.def, Example: strings.TrimSpace(b.def.Keyword + " " + b.def.Pattern)}
		closest, related := -1.0, false
		for vi, step := range variants {
			// A paraphrase counts a little less than the step as written,
			// so that a definition close to the words wins a tie.
			discount := 1.0
			if vi > 0 {
				discount = paraphraseDiscount
			}
			if b.pattern != nil {
				best.Similarity = max(best.Similarity, discount*similarity(step, b.pattern))
			}
			for i, ex := range b.examples {
				if s := discount * similarity(step, ex); s > closest {
					closest, best.Example = s, b.def.Examples[i]
				}
			}
			related = related || sharesAWord(step, b)
		}
		best.Similarity = max(best.Similarity, closest)
		if !related {
			continue
		}
		if checks && b.def.Keyword != "Then" {
			best.Similarity *= actionForCheck
		}
		if best.Similarity >= minSimilarity {
			best.Example = withArguments(best.Example, text)
			out = append(out, best)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Similarity > out[j].Similarity })
	if len(out) > maxSuggestions {
		out = out[:maxSuggestions]
	}
	m.mu.Lock()
	m.suggestions[key] = out
	m.mu.Unlock()
	return out
}

const (
	// paraphraseDiscount weighs the similarity to a paraphrase of the
	// step, against the step as written.
	paraphraseDiscount = 0.95
	// actionForCheck weighs a definition that acts (a Given or When of
	// the library) for a step that checks: "I should see X" is not
	// "I check X".
	actionForCheck = 0.6
)

// checkWords are words of a step that checks rather than acts.
var checkWords = map[string]bool{
	"should": true, "see": true, "sees": true, "expect": true, "expects": true, "verify": true, "assert": true,
	"must": true, "shown": true, "displayed": true, "visible": true, "appears": true, "present": true,
}

// readsAsCheck reports whether a step's words say it checks something.
func readsAsCheck(step []string) bool {
	for _, w := range step {
		if checkWords[w] {
			return true
		}
	}
	return false
}

// paraphrases map common ways of writing a step to the built-in library's
// phrasing, for ranking by meaning: the words differ, the step is the
// same. $q is the quoted argument as the user wrote it.
var paraphrases = []struct {
	re *regexp.Regexp
	to string
}{
	{regexp.MustCompile(`(?i)^I (?:should|can|do|must)?\s*(?:not|n't|never) see (?:the text )?(` + quotedArg + `)(?: on the page)?$`), `I expect the page not to contain the text $1`},
	{regexp.MustCompile(`(?i)^I (?:shouldn't|don't|can't|cannot) see (?:the text )?(` + quotedArg + `)(?: on the page)?$`), `I expect the page not to contain the text $1`},
	{regexp.MustCompile(`(?i)^I (?:should |can |do |must )?see (?:the text )?(` + quotedArg + `)(?: on the page)?$`), `I expect the page to contain the text $1`},
	{regexp.MustCompile(`(?i)^(?:the )?(?:text )?(` + quotedArg + `) (?:is|are|should be|must be) (?:shown|displayed|visible|present|on the page)$`), `I expect the page to contain the text $1`},
	{regexp.MustCompile(`(?i)^(?:the )?(?:text )?(` + quotedArg + `) (?:is|are|should be|must be) (?:not shown|not displayed|not visible|hidden|gone)$`), `I expect the page not to contain the text $1`},
	{regexp.MustCompile(`(?i)^(?:the )?(?:element )?(` + quotedArg + `) (?:element )?(?:is|are|should be|must be) (?:shown|displayed|visible)$`), `I expect $1 to be visible`},
	{regexp.MustCompile(`(?i)^(?:the )?(?:page )?title (?:is|should be|must be|equals) (` + quotedArg + `)$`), `I expect the title to equal $1`},
	{regexp.MustCompile(`(?i)^I (?:should be|am|must be) (?:on|at) (?:the )?(` + quotedArg + `)(?: page)?$`), `I expect the URL to contain $1`},
	{regexp.MustCompile(`(?i)^(?:the )?url (?:is|should be|must be|equals) (` + quotedArg + `)$`), `I expect the URL to equal $1`},
	{regexp.MustCompile(`(?i)^I (?:click|tap|press|hit|push|select) (?:on )?the (` + quotedArg + `) (?:button|link|tab|menu item)$`), `I click $1`},
}

// quotedArg is a step argument in double or single quotes.
const quotedArg = `"[^"]*"|'[^']*'`

// paraphrase returns text in the library's words, when it is written in
// one of the common other ways (paraphrases).
func paraphrase(text string) []string {
	var out []string
	for _, p := range paraphrases {
		if p.re.MatchString(text) {
			out = append(out, p.re.ReplaceAllString(text, p.to))
		}
	}
	return out
}

// argRe finds a step's arguments: quoted text and numbers.
var argRe = regexp.MustCompile(`"[^"]*"|'[^']*'|-?\b\d+(?:\.\d+)?\b`)

// withArguments puts the step's own arguments into a suggested example:
// its quoted arguments and numbers, in order, replace the example's of the
// same kind (the example's extra ones stay). An example with no argument
// of a kind the step has is returned as it is for that kind.
func withArguments(example, text string) string {
	var quoted, numbers []string
	for _, a := range argRe.FindAllString(text, -1) {
		if a[0] == '"' || a[0] == '\'' {
			quoted = append(quoted, a)
		} else {
			numbers = append(numbers, a)
		}
	}
	line, rest, multi := strings.Cut(example, "\n")
	qi, ni := 0, 0
	line = argRe.ReplaceAllStringFunc(line, func(a string) string {
		if a[0] == '"' || a[0] == '\'' {
			if qi < len(quoted) {
				qi++
				return quoted[qi-1]
			}
			return a
		}
		if ni < len(numbers) {
			ni++
			return numbers[ni-1]
		}
		return a
	})
	if multi {
		return line + "\n" + rest
	}
	return line
}

// builtinTokens are a built-in definition's expression and examples as
// words.
type builtinTokens struct {
	def      *jsbridge.StepDef
	pattern  []string // nil for a regular expression
	examples [][]string
}

func (m *matcher) tokenizeBuiltins() {
	for _, d := range m.defs {
		if !d.Source.IsLibrary() {
			continue
		}
		b := builtinTokens{def: d}
		if !d.IsRegexp {
			b.pattern = expressionTokens(d.Pattern)
		}
		for _, ex := range d.Examples {
			b.examples = append(b.examples, textTokens(StepText(ex)))
		}
		m.builtins = append(m.builtins, b)
	}
}

// builtinSnippets are the suggestions of built-in steps for an undefined
// step, as Gherkin snippets after the code snippets: a comment naming the
// step and what it does, then its example.
func (m *matcher) builtinSnippets(text string, outcome bool) []*messages.Snippet {
	var out []*messages.Snippet
	for _, s := range m.closestBuiltins(text, outcome) {
		comment := "# Built-in step: " + s.Def.Pattern
		if s.Def.IsRegexp {
			comment = "# Built-in step: /" + s.Def.Pattern + "/"
		}
		if d := strings.TrimSpace(s.Def.Description); d != "" {
			comment += " — " + d
		}
		out = append(out, &messages.Snippet{Language: "gherkin", Code: comment + "\n" + s.Example})
	}
	return out
}

// hintBuiltins says on stderr, once per text, which built-in steps come
// close to an undefined step's text (nothing when none does).
func (r *Run) hintBuiltins(text string, outcome bool) {
	if _, done := r.builtinHints.LoadOrStore(text, true); done || r.opts.Stderr == nil {
		return
	}
	close := r.matcher.closestBuiltins(text, outcome)
	if len(close) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ferridriver: the undefined step %q is close to built-in steps:", text)
	for _, s := range close {
		expr := s.Def.Pattern
		if s.Def.IsRegexp {
			expr = "/" + expr + "/"
		}
		if d := strings.TrimSpace(s.Def.Description); d != "" {
			expr += " — " + d
		}
		fmt.Fprintf(&b, "\n  %s   # %s", strings.TrimSpace(strings.SplitN(s.Example, "\n", 2)[0]), expr)
	}
	fmt.Fprintln(r.opts.Stderr, b.String())
}

// StepText is the text of a step as an example writes it: without its
// leading Gherkin keyword (Given, When, Then, And, But, *) and without a
// doc string or DataTable on the lines after the first.
func StepText(example string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(example), "\n")
	line = strings.TrimSpace(line)
	for _, k := range []string{"Given ", "When ", "Then ", "And ", "But ", "* "} {
		if strings.HasPrefix(line, k) {
			return strings.TrimSpace(line[len(k):])
		}
	}
	return line
}

// Placeholder tokens: what a parameter stands for.
const (
	tokQuoted = "\x00string" // "text" in a step, {string} in an expression
	tokNumber = "\x00number" // 12 or -1.5 in a step, {int}/{float}... in an expression
	tokAny    = "\x00any"    // {word}, {} and other parameter types: any one token
)

func isPlaceholder(tok string) bool { return strings.HasPrefix(tok, "\x00") }

var (
	stepTokenRe = regexp.MustCompile(`"[^"]*"|'[^']*'|-?\d+(?:\.\d+)?|[\p{L}\p{N}_]+`)
	wordRe      = regexp.MustCompile(`[\p{L}\p{N}_]+`)
)

// textTokens splits a step's text into lower-case words, with quoted text
// and numbers abstracted.
func textTokens(text string) []string {
	var out []string
	for _, t := range stepTokenRe.FindAllString(text, -1) {
		switch c := t[0]; {
		case c == '"' || c == '\'':
			out = append(out, tokQuoted)
		case c == '-' || c >= '0' && c <= '9':
			out = append(out, tokNumber)
		default:
			out = append(out, strings.ToLower(t))
		}
	}
	return out
}

// expressionTokens splits a Cucumber Expression into words: parameters
// become placeholders, optional text is left out, and alternatives
// ("click/press") stay one token whose words are joined by "/".
func expressionTokens(expr string) []string {
	var out []string
	var chunk strings.Builder
	flush := func() {
		c := chunk.String()
		chunk.Reset()
		if c == "" {
			return
		}
		words := wordRe.FindAllString(c, -1)
		if strings.Contains(c, "/") && len(words) > 1 {
			out = append(out, strings.ToLower(strings.Join(words, "/")))
			return
		}
		for _, w := range words {
			out = append(out, strings.ToLower(w))
		}
	}
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; c {
		case '\\':
			if i+1 < len(expr) {
				i++
				chunk.WriteByte(expr[i])
			}
		case ' ', '\t':
			flush()
		case '(':
			// Optional text: "todo(s)", "(the )page".
			if end := strings.IndexByte(expr[i:], ')'); end > 0 {
				i += end
			}
		case '{':
			end := strings.IndexByte(expr[i:], '}')
			if end < 0 {
				chunk.WriteByte(c)
				continue
			}
			flush()
			switch expr[i+1 : i+end] {
			case "string":
				out = append(out, tokQuoted)
			case "int", "float", "double", "bigdecimal", "byte", "short", "long", "biginteger":
				out = append(out, tokNumber)
			default:
				out = append(out, tokAny)
			}
			i += end
		default:
			chunk.WriteByte(c)
		}
	}
	flush()
	return out
}

// sharesAWord reports whether the step and the definition's expression or
// an example have a word in common besides small words and parameters (or
// a near miss, or a synonym): "I see {string}" and "I open {string}" are
// alike in form only.
func sharesAWord(step []string, b builtinTokens) bool {
	for _, cand := range append([][]string{b.pattern}, b.examples...) {
		for _, x := range step {
			if smallWords[x] || isPlaceholder(x) {
				continue
			}
			for _, y := range cand {
				if !smallWords[y] && !isPlaceholder(y) && tokenCost(x, y) < 0.5 {
					return true
				}
			}
		}
	}
	return false
}

// synonyms are words steps use for the same action or check; one for
// another costs little.
var synonyms = map[string]int{}

func init() {
	for i, group := range [][]string{
		{"open", "visit", "navigate", "go", "browse", "load"},
		{"click", "press", "tap", "hit", "push"},
		{"fill", "type", "enter", "input", "write"},
		{"see", "expect", "should", "verify", "assert"},
		{"visible", "shown", "displayed", "present"},
		{"hidden", "invisible"},
		{"choose", "select", "pick"},
		{"remember", "save", "store", "keep"},
		{"wait", "pause", "sleep"},
		{"contain", "contains", "include", "includes", "has", "have"},
		{"equal", "equals", "is", "be"},
	} {
		for _, w := range group {
			synonyms[w] = i + 1
		}
	}
}

// smallWords weigh half: they say little about what a step does.
var smallWords = map[string]bool{
	"i": true, "the": true, "a": true, "an": true, "to": true, "of": true, "on": true,
	"in": true, "is": true, "be": true, "and": true, "with": true, "as": true, "at": true,
	"has": true, "have": true, "for": true, "from": true, "into": true, "by": true,
}

func weight(tok string) float64 {
	if smallWords[tok] {
		return 0.5
	}
	return 1
}

// similarity is 1 minus the weighted word edit distance between a and b
// over the larger of their weights.
func similarity(a, b []string) float64 {
	var wa, wb float64
	for _, t := range a {
		wa += weight(t)
	}
	for _, t := range b {
		wb += weight(t)
	}
	total := max(wa, wb)
	if total == 0 {
		return 0
	}
	// prev[j] is the distance between a[:i-1] and b[:j].
	prev := make([]float64, len(b)+1)
	cur := make([]float64, len(b)+1)
	for j, t := range b {
		prev[j+1] = prev[j] + weight(t)
	}
	for _, ta := range a {
		cur[0] = prev[0] + weight(ta)
		for j, tb := range b {
			cur[j+1] = min(
				prev[j+1]+weight(ta),
				cur[j]+weight(tb),
				prev[j]+max(weight(ta), weight(tb))*tokenCost(ta, tb),
			)
		}
		prev, cur = cur, prev
	}
	return max(0, 1-prev[len(b)]/total)
}

// tokenCost is 0 for tokens that match, a little for a typo or a synonym,
// half for a parameter type that may or may not match, 1 otherwise.
func tokenCost(a, b string) float64 {
	switch {
	case a == b:
		return 0
	case a == tokAny || b == tokAny:
		return 0.5
	}
	if isPlaceholder(a) || isPlaceholder(b) {
		return 1
	}
	best := 1.0
	for _, x := range strings.Split(a, "/") {
		for _, y := range strings.Split(b, "/") {
			best = min(best, wordCost(x, y))
		}
	}
	return best
}

// wordCost is 0 for the same word, 0.3 for a synonym, the share of edits
// for a near miss of a word of four letters or more ("clik", "opne"), 1
// otherwise.
func wordCost(a, b string) float64 {
	if a == b {
		return 0
	}
	if g := synonyms[a]; g != 0 && g == synonyms[b] {
		return 0.3
	}
	n := max(utf8.RuneCountInString(a), utf8.RuneCountInString(b))
	if n < 4 {
		return 1
	}
	d := float64(editDistance([]rune(a), []rune(b))) / float64(n)
	if d > 0.34 {
		return 1
	}
	return d
}

// editDistance counts the insertions, deletions, substitutions and
// transpositions of adjacent letters that turn a into b (optimal string
// alignment).
func editDistance(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

package browsing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// The recording: every action and check of a session, as the line of
// Playwright code that does it and as the built-in Gherkin step that
// does it (the phrasings of the step library in steps/, which
// `ferridriver bdd` runs). Targets are written as Playwright selectors
// (role=button[name="Log in"], >> nth=i when not unique), which both the
// step library and page.locator understand.

// Kind orders a recorded step into Given / When / Then.
type Kind int

// Step kinds.
const (
	KindContext Kind = iota // Given: where the scenario starts
	KindAction              // When
	KindCheck               // Then
)

// Step is one recorded step.
type Step struct {
	Kind Kind
	// Text is the step without its keyword, e.g. `I click "role=button[name=\"Add\"]"`.
	Text string
	// Upload is the absolute path of a file the step uploads ("" if none):
	// the step names it relative to the exported feature's directory.
	Upload string
	// uploadTarget is the step's target when Upload is set.
	uploadTarget string
	// Comment, when set, makes this entry a comment line of the feature
	// (`# ...`) instead of a step: what ran and could not be recorded.
	Comment string
	// Suggested marks a check the recording added after a navigation (the
	// heading or URL the page showed): Exported leaves it out when the
	// agent's own check comes next.
	Suggested bool
}

// Exported is steps as a feature writes them: a suggested check is left
// out when a check of the agent's follows it (comments aside).
func Exported(steps []Step) []Step {
	out := make([]Step, 0, len(steps))
	for i, st := range steps {
		if st.Suggested && agentCheckFollows(steps[i+1:]) {
			continue
		}
		out = append(out, st)
	}
	return out
}

func agentCheckFollows(rest []Step) bool {
	for _, st := range rest {
		if st.Comment != "" {
			continue
		}
		return st.Kind == KindCheck && !st.Suggested
	}
	return false
}

// target is an element as the recording names it.
type target struct {
	sel  string // Playwright selector (Gherkin TARGET form 3)
	code string // Playwright expression: page.getByRole(...), page.locator(...)
}

// jsonQuote is s as a JSON string, without HTML escaping.
func jsonQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(b.String(), "\n")
}

// jsString is s as a single-quoted JavaScript string literal.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// GherkinString is s as a Cucumber {string} argument: "..." unless s
// holds a double quote, then '...'; when it holds both, "..." with \"
// (Cucumber unescapes it).
func GherkinString(s string) string {
	switch {
	case !strings.Contains(s, `"`):
		return `"` + s + `"`
	case !strings.Contains(s, `'`):
		return `'` + s + `'`
	}
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// roleTarget names the element with role and accessible name, the
// index-th (0-based) of count matches when count > 1.
func roleTarget(role, name string, hasName bool, index, count int) target {
	sel := "role=" + role
	code := "page.getByRole(" + jsString(role)
	if hasName {
		sel += "[name=" + jsonQuote(name) + "]"
		code += ", { name: " + jsString(name) + " })"
	} else {
		code += ")"
	}
	if count > 1 && index >= 0 {
		sel += fmt.Sprintf(" >> nth=%d", index)
		code += fmt.Sprintf(".nth(%d)", index)
	}
	return target{sel: sel, code: code}
}

// selectorTarget names the element by a Playwright selector as given.
func selectorTarget(sel string) target {
	return target{sel: sel, code: "page.locator(" + jsString(sel) + ")"}
}

// textTarget names the element whose text contains text.
func textTarget(text string) target {
	return target{sel: "text=" + jsonQuote(text), code: "page.getByText(" + jsString(text) + ")"}
}

// relativeURL writes u relative to baseURL when it is under it (the
// exported feature then runs against any deployment the project's
// baseURL points at).
func relativeURL(u, baseURL string) string {
	if baseURL == "" {
		return u
	}
	b := strings.TrimRight(baseURL, "/")
	if u == b {
		return "/"
	}
	if strings.HasPrefix(u, b+"/") || strings.HasPrefix(u, b+"?") || strings.HasPrefix(u, b+"#") {
		return u[len(b):]
	}
	return u
}

// Feature writes steps as a feature file with one scenario. dir is the
// directory the file is meant for: uploads are named relative to it.
func Feature(feature, scenario string, steps []Step, dir string) string {
	if feature == "" {
		feature = "Recorded session"
	}
	if scenario == "" {
		scenario = "Recorded session"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Feature: %s\n\n  Scenario: %s\n", oneLine(feature), oneLine(scenario))
	prev := Kind(-1)
	for _, st := range Exported(steps) {
		if st.Comment != "" {
			fmt.Fprintf(&b, "    # %s\n", oneLine(st.Comment))
			continue
		}
		kw := [...]string{"Given", "When", "Then"}[st.Kind]
		if st.Kind == prev {
			kw = "And"
		} else if st.Kind < prev {
			kw = "And" // Gherkin allows it; the keyword does not change matching
			if st.Kind == KindAction {
				kw = "When"
			}
		}
		prev = st.Kind
		text := st.Text
		if st.Upload != "" {
			p := st.Upload
			if dir != "" {
				if r, err := filepath.Rel(dir, st.Upload); err == nil {
					p = filepath.ToSlash(r)
				}
			}
			text = phUpload.render(p, st.uploadTarget)
		}
		fmt.Fprintf(&b, "    %s %s\n", kw, text)
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

package browsing

import (
	"fmt"
	"strings"
)

// phrase is a step definition of the built-in library (steps/*.ts), named
// by its Cucumber Expression exactly as the library registers it: the
// recording renders every step from one of these, filling its parameters
// in order, so the library's catalogue is the one source of each phrasing
// (`ferridriver steps --builtin` lists the same expressions). A test
// (phrases_test.go) loads the library, finds each expression among its
// definitions and checks that the step rendered from it matches that
// definition and no other.
type phrase string

// The phrasings the recording writes.
const (
	phOpen            phrase = "I open {text}"
	phGoBack          phrase = "I go back"
	phGoForward       phrase = "I go forward"
	phReload          phrase = "I reload the page"
	phClick           phrase = "I click {target}"
	phDoubleClick     phrase = "I double click {target}"
	phRightClick      phrase = "I right click {target}"
	phClickHolding    phrase = "I click {target} while holding {text}"
	phFill            phrase = "I fill {target} with {text}"
	phTypeInto        phrase = "I type {text} into {target}"
	phPress           phrase = "I press {text}"
	phPressOn         phrase = "I press {text} on {target}"
	phCheck           phrase = "I check {target}"
	phUncheck         phrase = "I uncheck {target}"
	phSelect          phrase = "I select {text} in {target}"
	phHover           phrase = "I hover {target}"
	phDrag            phrase = "I drag {target} to {target}"
	phUpload          phrase = "I upload {text} to {target}"
	phAcceptDialog    phrase = "I accept the next dialog"
	phDismissDialog   phrase = "I dismiss the next dialog"
	phAcceptPrompt    phrase = "I accept the next prompt with {text}"
	phWaitText        phrase = "I wait for the text {text}"
	phWaitHidden      phrase = "I wait for {target} to be hidden"
	phWaitMillis      phrase = "I wait {int} millisecond(s)"
	phViewport        phrase = "I set the viewport to {int} by {int}"
	phMediaType       phrase = "I emulate the media type {text}"
	phColorScheme     phrase = "I emulate the color scheme {text}"
	phNewTab          phrase = "I open a new tab"
	phOpenInNewTab    phrase = "I open {text} in a new tab"
	phSwitchTab       phrase = "I switch to tab {int}"
	phSwitchToNewTab  phrase = "I switch to the new tab"
	phCloseCurrentTab phrase = "I close the current tab"
	phCloseTab        phrase = "I close tab {int}"
	phExpectVisible   phrase = "I expect {target} {to} be visible"
	phExpectChecked   phrase = "I expect {target} {to} be checked"
	phExpectPageText  phrase = "I expect the page {to} contain the text {text}"
	phExpectValue     phrase = "I expect the value of {target} {validation} {expected}"
	phExpectText      phrase = "I expect the text of {target} {validation} {expected}"
	phExpectURL       phrase = "I expect the URL {validation} {expected}"
)

// phrases lists every phrase above: what the test checks against the
// library.
var phrases = []phrase{
	phOpen, phGoBack, phGoForward, phReload, phClick, phDoubleClick, phRightClick, phClickHolding,
	phFill, phTypeInto, phPress, phPressOn, phCheck, phUncheck, phSelect, phHover, phDrag, phUpload,
	phAcceptDialog, phDismissDialog, phAcceptPrompt, phWaitText, phWaitHidden, phWaitMillis,
	phViewport, phMediaType, phColorScheme, phNewTab, phOpenInNewTab, phSwitchTab, phSwitchToNewTab, phCloseCurrentTab,
	phCloseTab, phExpectVisible, phExpectChecked, phExpectPageText, phExpectValue, phExpectText, phExpectURL,
}

// Words for the {to} and {validation} parameters.
const (
	wordTo      = "to"
	wordNotTo   = "not to"
	wordToEqual = "to equal"
)

// params are the parameter types of p's expression, in order.
func (p phrase) params() []string {
	var out []string
	s := string(p)
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i:], '}')
		out = append(out, s[i+1:i+j])
		s = s[i+j+1:]
	}
}

// render writes p with args, one per parameter in order: {text},
// {target} and {expected} take a string (written as a Cucumber string),
// {int} an int, {to} and {validation} their words (to, not to, to
// equal...). An optional text such as "millisecond(s)" is written with
// its letters. A wrong argument is a bug of the recorder: it panics, and
// the recorder's tests catch it.
func (p phrase) render(args ...any) string {
	var b strings.Builder
	s := string(p)
	n := 0
	for s != "" {
		switch s[0] {
		case '{':
			j := strings.IndexByte(s, '}')
			typ := s[1:j]
			s = s[j+1:]
			if n >= len(args) {
				panic(fmt.Sprintf("browsing: %q: too few arguments", p))
			}
			a := args[n]
			n++
			switch typ {
			case "text", "target", "expected":
				b.WriteString(GherkinString(a.(string)))
			case "int":
				fmt.Fprintf(&b, "%d", a.(int))
			case "to", "validation":
				b.WriteString(a.(string))
			default:
				panic(fmt.Sprintf("browsing: %q: parameter type {%s} has no rendering", p, typ))
			}
		case '(', ')':
			s = s[1:] // optional text: written
		default:
			b.WriteByte(s[0])
			s = s[1:]
		}
	}
	if n != len(args) {
		panic(fmt.Sprintf("browsing: %q: %d arguments for %d parameters", p, len(args), n))
	}
	return b.String()
}

// canRender reports whether every string argument can be written on one
// step line.
func canRender(args ...any) bool {
	for _, a := range args {
		if s, ok := a.(string); ok && strings.ContainsAny(s, "\n\r") {
			return false
		}
	}
	return true
}

// actionStep is an action step of p.
func actionStep(p phrase, args ...any) Step {
	return Step{Kind: KindAction, Text: p.render(args...)}
}

// checkStep is a check step of p.
func checkStep(p phrase, args ...any) Step {
	return Step{Kind: KindCheck, Text: p.render(args...)}
}

// article is "a" or "an" for word (a dialog's type: an alert, a confirm,
// a prompt, a beforeunload).
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

package pwerror

import (
	"errors"
	"strings"
	"testing"
)

// Call logs as the Playwright driver 1.52 sends them (folded into the
// message, as Playwright's client and ferridriver's driver entry do).
const (
	hidden = "locator.click: Timeout 4749ms exceeded.\nCall log:\n" +
		"  - waiting for locator('#secret')\n" +
		"    - locator resolved to <div id=\"secret\">Secret</div>\n" +
		"  - attempting click action\n" +
		"    2 × waiting for element to be visible, enabled and stable\n" +
		"      - element is not visible\n" +
		"    - retrying click action\n" +
		"    - waiting 20ms\n" +
		"    2 × waiting for element to be visible, enabled and stable\n" +
		"      - element is not visible\n" +
		"    - retrying click action\n" +
		"      - waiting 100ms\n" +
		"    8 × waiting for element to be visible, enabled and stable\n" +
		"      - element is not visible\n" +
		"    - retrying click action\n" +
		"      - waiting 500ms\n"
	disabled = "locator.click: Timeout 4749ms exceeded.\nCall log:\n" +
		"  - waiting for locator('#save')\n" +
		"    - locator resolved to <button disabled id=\"save\" type=\"button\">Save</button>\n" +
		"  - attempting click action\n" +
		"    2 × waiting for element to be visible, enabled and stable\n" +
		"      - element is not enabled\n" +
		"    - retrying click action\n" +
		"    - waiting 20ms\n"
	detached = "locator.click: Timeout 1000ms exceeded.\nCall log:\n" +
		"  - waiting for locator('#banner')\n" +
		"    - locator resolved to <div id=\"banner\">Sale</div>\n" +
		"  - attempting click action\n" +
		"    - waiting for element to be visible, enabled and stable\n" +
		"    - element was detached from the DOM, retrying\n" +
		"  - waiting for locator('#banner')\n"
	waitText = "locator.waitFor: Timeout 4749ms exceeded.\nCall log:\n" +
		"  - waiting for getByText('Saved').filter({ visible: true }).first() to be visible\n"
)

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Failure
		want string
	}{
		{"hidden", Failure{Message: hidden, Target: `"#secret"`}, "locator.click: Timeout 4749ms exceeded.\n" +
			"Target: \"#secret\"\n" +
			"Call log (last lines):\n" +
			"  - waiting for locator('#secret')\n" +
			"  - locator resolved to <div id=\"secret\">Secret</div>\n" +
			"  - 12 × element is not visible\n" +
			"  - 3 × retrying click action"},
		{"disabled, with an action", Failure{Message: disabled, Action: "click", Target: `button "Save" [ref=e12]`}, "locator.click: Timeout 4749ms exceeded.\n" +
			"Action: click\n" +
			"Target: button \"Save\" [ref=e12]\n" +
			"Call log (last lines):\n" +
			"  - waiting for locator('#save')\n" +
			"  - locator resolved to <button disabled id=\"save\" type=\"button\">Save</button>\n" +
			"  - 2 × element is not enabled\n" +
			"  - retrying click action"},
		{"detached", Failure{Message: detached}, "locator.click: Timeout 1000ms exceeded.\n" +
			"Call log (last lines):\n" +
			"  - waiting for locator('#banner')\n" +
			"  - locator resolved to <div id=\"banner\">Sale</div>\n" +
			"  - element was detached from the DOM, retrying"},
		{"wait for a text", Failure{Message: waitText, Target: `the text "Saved"`}, "locator.waitFor: Timeout 4749ms exceeded.\n" +
			"Target: the text \"Saved\"\n" +
			"Call log (last lines):\n" +
			"  - waiting for getByText('Saved').filter({ visible: true }).first() to be visible"},
		{"no call log", Failure{Message: "page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/", Target: `"http://127.0.0.1:1/"`},
			"page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/\nTarget: \"http://127.0.0.1:1/\""},
		{"plain", Failure{Message: "something else"}, "something else"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Format(tc.f)
			if got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			// Formatting again, as a step does after the binding did,
			// changes nothing.
			if again := Format(Failure{Message: got, Action: tc.f.Action, Target: tc.f.Target}); again != got {
				t.Fatalf("not idempotent:\n%s\nthen:\n%s", got, again)
			}
		})
	}
}

// A target added to a message the binding already trimmed goes before the
// call log; the log is kept as it was.
func TestTargetAddedLater(t *testing.T) {
	trimmed := Format(Failure{Message: hidden})
	got := Message(trimmed, `the first "#secret"`)
	head, log := Split(got)
	if head != "locator.click: Timeout 4749ms exceeded.\nTarget: the first \"#secret\"" || len(log) != 4 {
		t.Fatalf("got:\n%s", got)
	}
	if Error(nil, "", "") != "" || !strings.HasPrefix(Error(errors.New(hidden), "click", ""), "locator.click: Timeout 4749ms exceeded.\nAction: click\n") {
		t.Fatal("Error")
	}
}

// A long log keeps the line that says what was waited for and the last
// lines, MaxLogLines in all.
func TestReasonKeepsTheLastLines(t *testing.T) {
	log := []string{"  - waiting for locator('#a')"}
	for _, l := range []string{"one", "two", "three", "four", "five", "six"} {
		log = append(log, "    - "+l)
	}
	got := Reason(log)
	want := []string{"waiting for locator('#a')", "three", "four", "five", "six"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

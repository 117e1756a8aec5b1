package browsing

import (
	"errors"
	"testing"
)

// TestAgentMessage: a failure names Playwright's reason on its first
// line and the target on the second, without the call log.
func TestAgentMessage(t *testing.T) {
	for _, c := range []struct{ name, err, target, want string }{
		{"disabled button", "playwright: timeout: Timeout 10000ms exceeded.\nCall log:\n  - waiting for locator('button')\n    - locator resolved to <button disabled>Off</button>\n  - attempting click action\n    2 × waiting for element to be visible, enabled and stable\n      - element is not enabled\n    - retrying click action\n    - waiting 20ms\n    9 × waiting for element to be visible, enabled and stable\n      - element is not enabled\n    - retrying click action\n      - waiting 500ms",
			"button [ref=e2]", "Timeout 10000ms exceeded: element is not enabled\nTarget: button [ref=e2]"},
		{"no element", "playwright: timeout: Timeout 5000ms exceeded.\nCall log:\n  - waiting for locator('#nope')",
			"#nope", "Timeout 5000ms exceeded: no element matched while waiting for locator('#nope')\nTarget: #nope"},
		{"covered", "Timeout 5000ms exceeded.\nCall log:\n  - waiting for locator('#b')\n    - locator resolved to <button id=\"b\">B</button>\n  - attempting click action\n    - waiting for element to be visible, enabled and stable\n    - element is visible, enabled and stable\n    - scrolling into view if needed\n    - done scrolling\n    - <div id=\"cover\"></div> intercepts pointer events\n  - retrying click action",
			"", "Timeout 5000ms exceeded: <div id=\"cover\"></div> intercepts pointer events"},
		{"text never shown", "playwright: timeout: Timeout 1000ms exceeded.\nCall log:\n  - waiting for getByText('Never shown').first() to be visible",
			"", "Timeout 1000ms exceeded: no element matched while waiting for getByText('Never shown').first() to be visible"},
		{"navigation", "Frame.Goto http://127.0.0.1:1/: playwright: net::ERR_UNSAFE_PORT at http://127.0.0.1:1/\nCall log:\n  - navigating to \"http://127.0.0.1:1/\", waiting until \"load\"",
			"", "net::ERR_UNSAFE_PORT at http://127.0.0.1:1/"},
	} {
		if got := agentMessage(errors.New(c.err), c.target); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

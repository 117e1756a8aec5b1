package browsing

import (
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

type fakePage struct {
	playwright.Page
	n int
}

func TestRenderUserEvents(t *testing.T) {
	p0, p1 := &fakePage{n: 0}, &fakePage{n: 1}
	name := roleTarget("textbox", "Name", true, 0, 1)
	btn := roleTarget("button", "Go", true, 0, 1)
	link := roleTarget("link", "Docs", true, 0, 1)
	start := userEvent{kind: "start", page: p0, tab: 1, value: "/form"}
	for _, c := range []struct {
		name   string
		events []userEvent
		steps  []string
		code   []string
	}{
		{"typing is one fill; Enter after it presses on the field", []userEvent{
			{ts: 3, kind: "fill", page: p0, el: "1", rt: name, value: "Ad"},
			{ts: 1, kind: "fill", page: p0, el: "1", rt: name, value: "A"},
			{ts: 5, kind: "fill", page: p0, el: "1", rt: name, value: "Ada"},
			{ts: 6, kind: "enter", page: p0, el: "1", rt: name},
		}, []string{`I open "/form"`, `I fill 'role=textbox[name="Name"]' with "Ada"`, `I press "Enter"`},
			[]string{"await page.goto('/form');", "await page.getByRole('textbox', { name: 'Name' }).fill('Ada');", "await page.getByRole('textbox', { name: 'Name' }).press('Enter');"}},
		{"a double click replaces its clicks", []userEvent{
			{ts: 1, kind: "click", page: p0, el: "2", rt: btn},
			{ts: 2, kind: "click", page: p0, el: "2", rt: btn},
			{ts: 3, kind: "dblclick", page: p0, el: "2", rt: btn},
		}, []string{`I open "/form"`, `I double click 'role=button[name="Go"]'`}, nil},
		{"the navigation a link caused is the click's; a later one is recorded", []userEvent{
			{ts: 1, kind: "click", page: p0, el: "3", rt: link, href: "http://app/docs#top"},
			{ts: 300, kind: "nav", page: p0, value: "http://app/docs"},
			{ts: 400, kind: "nav", page: p0, value: "http://app/other"},
		}, []string{`I open "/form"`, `I click 'role=link[name="Docs"]'`, `I open "/other"`}, nil},
		{"a tab a click opened is switched to when the user acts there", []userEvent{
			{ts: 1, kind: "click", page: p0, el: "3", rt: link},
			{ts: 50, kind: "tab", page: p1, tab: 2, value: "about:blank"},
			{ts: 60, kind: "nav", page: p1, tab: 2, value: "http://app/docs"},
			{ts: 70, kind: "click", page: p1, tab: 2, el: "1", rt: btn},
			{ts: 80, kind: "click", page: p0, tab: 1, el: "3", rt: link},
		}, []string{`I open "/form"`, `I click 'role=link[name="Docs"]'`, `I switch to the new tab`, `I click 'role=button[name="Go"]'`, `I switch to tab 1`, `I click 'role=link[name="Docs"]'`},
			[]string{"await page.goto('/form');",
				"const page1Promise = page.waitForEvent('popup');\nawait page.getByRole('link', { name: 'Docs' }).click();\nconst page1 = await page1Promise;",
				"await page1.getByRole('button', { name: 'Go' }).click();", "await page.getByRole('link', { name: 'Docs' }).click();"}},
		{"a tab the user opened", []userEvent{
			{ts: 1, kind: "tab", page: p1, tab: 2, value: "about:blank"},
			{ts: 2, kind: "nav", page: p1, tab: 2, value: "http://app/docs"},
		}, []string{`I open "/form"`, `I open "/docs" in a new tab`},
			[]string{"await page.goto('/form');", "const page1 = await page.context().newPage();", "await page1.goto('/docs');"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, steps := renderUserEvents(start, c.events, "http://app")
			var got []string
			for _, st := range steps {
				got = append(got, st.Text)
			}
			if strings.Join(got, "\n") != strings.Join(c.steps, "\n") {
				t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.steps, "\n"))
			}
			if c.code != nil && strings.Join(code, "\n") != strings.Join(c.code, "\n") {
				t.Errorf("code:\n%s\nwant:\n%s", strings.Join(code, "\n"), strings.Join(c.code, "\n"))
			}
		})
	}
}

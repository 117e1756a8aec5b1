package jsapi

import (
	"regexp"
	"testing"
)

func TestUnescapeRegexSource(t *testing.T) {
	for in, want := range map[string]string{
		`\u002flogin$`: `\/login$`,
		`[\u002f]`:     `[\/]`,
		`é\u002f`:      `é\/`,
		`\u0041b`:      `Ab`,
		`\u00e9`:       `é`,
		`\\u002f`:      `\\u002f`,
		`a\nb`:         `a\nb`,
		`\u000a`:       `\x0a`,
	} {
		got := unescapeRegexSource(in)
		if got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
		if _, err := regexp.Compile(got); err != nil && in != `\\u002f` {
			t.Errorf("%q: %v", got, err)
		}
	}
}

func TestGlobRegexp(t *testing.T) {
	for _, c := range []struct {
		glob, url string
		want      bool
	}{
		{"**/api/*", "http://x/api/todos", true},
		{"**/api/*", "http://x/api/todos/1", false},
		{"**/api/**", "http://x/api/todos/1", true},
		{"http://x/a?b=1", "http://x/a?b=1", true},
		{"**/*.{png,jpg}", "http://x/i/a.jpg", true},
		{"**/*.{png,jpg}", "http://x/i/a.gif", false},
		{`**/a\*b`, "http://x/a*b", true},
	} {
		if got := globRegexp(c.glob).MatchString(c.url); got != c.want {
			t.Errorf("%s ~ %s = %v", c.glob, c.url, got)
		}
	}
}

func TestSelectorsAndDescriptions(t *testing.T) {
	if got := textSelector(textMatch{s: `a "b"`}, false); got != `"a \"b\""i` {
		t.Errorf("text %s", got)
	}
	if got := textSelector(textMatch{s: "x"}, true); got != `"x"s` {
		t.Errorf("exact %s", got)
	}
	if got := attrValue(textMatch{s: `q"\`}, true); got != `"q\"\\"s` {
		t.Errorf("attr %s", got)
	}
	if got := regexSelector("a>>b", "i"); got != `/a\>\>b/i` {
		t.Errorf("regex %s", got)
	}
	if got := jsString("it's"); got != `'it\'s'` {
		t.Errorf("js %s", got)
	}
}

func TestParseMismatch(t *testing.T) {
	got, log := parseMismatch("Locator expected to have text 'x'\nActual value: 2 items left \nCall log:\n  - a\n  - b")
	if got != "2 items left" || len(log) != 2 {
		t.Errorf("%q %q", got, log)
	}
	got, log = parseMismatch("Locator expected to be visible\nActual value: <nil> ")
	if got != "<element(s) not found>" || log != nil {
		t.Errorf("%q %q", got, log)
	}
}

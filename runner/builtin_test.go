package runner

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/jsbridge"
)

// LoadLibrary loads the built-in library and the project's step files as
// a run does, and MatchText matches as a run does; LoadBuiltinSteps reads
// the built-in library alone.
func TestMatchTextAndLoadBuiltinSteps(t *testing.T) {
	lib := &jsbridge.Library{Name: "steps", Entries: []string{"index.ts"}, FS: fstest.MapFS{
		"index.ts": {Data: []byte(`import { When } from '@cucumber/cucumber'
When('I click {string}', { description: 'Clicks.', example: 'When I click "Save"' }, function (s: string) {})
When('I click {word}', function (s: string) {})
`)},
	}}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"steps/mine.ts": `import { When } from '@cucumber/cucumber'
When('I click "Save"', function () {})
When('I say {string}', function (s: string) {})
`})
	defs, err := LoadLibrary(Options{Dir: dir, Library: lib})
	if err != nil {
		t.Fatal(err)
	}
	defer defs.Close()
	if n := len(defs.Registry().Steps); n != 4 {
		t.Fatalf("%d steps, want the library's 2 and the project's 2", n)
	}
	for _, tc := range []struct{ text, want string }{
		{`I click "Save"`, "steps/mine.ts:2"},                                           // the project wins
		{`I click "Open"`, "ferridriver:steps/index.ts:2 ferridriver:steps/index.ts:3"}, // two library steps: ambiguous
		{`I click Open`, "ferridriver:steps/index.ts:3"},                                // {word}
		{`I say "hi"`, "steps/mine.ts:3"},                                               // the project alone
		{`I shout "hi"`, ""},                                                            // undefined
		{`I click "a b"`, "ferridriver:steps/index.ts:2"},                               // {word} does not take spaces
	} {
		got, err := defs.MatchText(tc.text)
		if err != nil {
			t.Fatal(err)
		}
		var srcs []string
		for _, d := range got {
			srcs = append(srcs, d.Source.String())
		}
		if strings.Join(srcs, " ") != tc.want {
			t.Errorf("%s: matched %q, want %q", tc.text, srcs, tc.want)
		}
	}
	if s := defs.Suggest(`I clik "Save"`); len(s) == 0 || s[0].Def.Pattern != "I click {string}" || s[0].Example != `When I click "Save"` {
		t.Errorf("suggestions %+v", s)
	}

	testenv.WriteFiles(t, dir, map[string]string{"steps/broken.ts": "this is not TypeScript("})
	if _, err := LoadLibrary(Options{Dir: dir, Library: lib}); err == nil || !strings.Contains(err.Error(), "steps/broken.ts:1:") {
		t.Fatalf("a broken step file: %v", err)
	}
	only, err := LoadBuiltinSteps(Options{Dir: dir, Library: lib})
	if err != nil {
		t.Fatalf("LoadBuiltinSteps reads the project's files: %v", err)
	}
	defer only.Close()
	if n := len(only.Registry().Steps); n != 2 {
		t.Fatalf("LoadBuiltinSteps: %d steps, want 2", n)
	}
}

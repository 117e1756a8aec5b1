package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// longText is a 70,000-character run of text, past bufio.Scanner's 64 KiB
// line limit at which the Gherkin library's scanner gave up (and its parser
// then panicked on a nil line).
var longText = strings.Repeat("abcdefghij", 7000)

// A feature with 70,000-character lines (a step, a description, a doc
// string, a table cell) runs and reports; a 70,000-character line that is
// not Gherkin is a parse error with its file, line and column (exit 2),
// never a crash (issue 25 item 3).
func TestBDDLongGherkinLines(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/long.feature": "Feature: long lines\n  " + longText + "\n\n" +
			"  Scenario: a long step\n    Given the text " + longText + "\n\n" +
			"  Scenario: a long doc string\n    Given a doc string:\n      \"\"\"\n      " + longText + "\n      \"\"\"\n\n" +
			"  Scenario: a long cell\n    Given a table:\n      | " + longText + " | short |\n",
		"steps/steps.js": `const { Given } = require('@cucumber/cucumber')
const want = 'abcdefghij'.repeat(7000)
const check = (s) => { if (s !== want) throw new Error('got ' + s.length + ' characters') }
Given(/^the text (\w+)$/, check)
Given('a doc string:', check)
Given('a table:', (t) => check(t.raw()[0][0]))
`,
	})
	r := ferridriver(t, dir, "bdd", "--format", "summary", "--format", "junit:out/junit.xml", "--format", "message:out/run.ndjson")
	if r.code != 0 || !strings.Contains(r.stdout, "3 scenarios (3 passed)") {
		t.Fatalf("exit %d\n%s\n%.2000s", r.code, r.stdout, r.stderr)
	}
	js := readJUnit(t, filepath.Join(dir, "out", "junit.xml"))
	if js.Tests != 3 {
		t.Errorf("junit: %d tests, want 3", js.Tests)
	}
	envs := readEnvelopes(t, filepath.Join(dir, "out", "run.ndjson"))
	if count(envs, "testCaseFinished") != 3 {
		t.Errorf("message stream: %d test cases finished, want 3", count(envs, "testCaseFinished"))
	}

	testenv.WriteFiles(t, dir, map[string]string{
		"features/long.feature": "Feature: not Gherkin\n  Scenario: s\n    Given the text x\n    | a |\n" + longText + "\n",
	})
	r = ferridriver(t, dir, "bdd")
	if r.code != 2 || !strings.Contains(r.stderr, "features/long.feature:5:1: ") || strings.Contains(r.stderr, "panic") {
		t.Errorf("a long line that is not Gherkin: exit %d, want 2 and features/long.feature:5:1\n%.2000s", r.code, r.stderr)
	}
}

// run_bdd with a 70,000-character step line answers with its result, and
// the server goes on serving its clients (issue 25 item 3: the Gherkin
// reader's panic took the whole server down).
func TestMCPRunBDDLongLine(t *testing.T) {
	dir := browserProject(t)
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": strings.Replace(readFile(t, filepath.Join(dir, "ferridriver.toml")), "[test]\n", "[test]\nsteps = [\"steps/**/*.js\"]\n", 1),
		"steps/steps.js": `const { Given } = require('@cucumber/cucumber')
Given(/^the text (\w+)$/, (s) => { if (s.length !== 70000) throw new Error('got ' + s.length) })
`,
	})
	endpoint := startMCPHTTP(t, dir, nil)
	a, b := httpClient(t, endpoint, ""), httpClient(t, endpoint, "")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	for _, gherkin := range []string{
		"Feature: long\n  Scenario: a long step\n    Given the text " + longText + "\n",
		"Feature: long\n  " + longText + "\n  Scenario: a long description\n    Given a doc string:\n      \"\"\"\n      " + longText + "\n      \"\"\"\n",
	} {
		res, err := a.CallTool(ctx, &sdk.CallToolParams{Name: "run_bdd", Arguments: map[string]any{"gherkin": gherkin}})
		if err != nil {
			t.Fatalf("run_bdd with a 70,000-character line: %v", err)
		}
		var out struct {
			Scenarios []struct{ Name, Status string }
		}
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &out); err != nil || len(out.Scenarios) != 1 {
			t.Fatalf("run_bdd result: %v\n%.2000s", err, resultText(res, 0))
		}
		if want := map[bool]string{true: "PASSED", false: "UNDEFINED"}[strings.Contains(gherkin, "the text")]; out.Scenarios[0].Status != want {
			t.Errorf("%s: %s, want %s\n%.2000s", out.Scenarios[0].Name, out.Scenarios[0].Status, want, resultText(res, 0))
		}
	}
	// Both clients are still served.
	for _, cs := range []*sdk.ClientSession{a, b} {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Errorf("the server stopped serving after run_bdd: %v", err)
		}
	}
}

package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// A flow called "once" runs once for the whole run, however many workers
// call it: every scenario gets the token of one login (the demo app gives
// a new token to every login). A @flow scenario is not a test case.
func TestCallOnceAcrossWorkers(t *testing.T) {
	scenario := `
  Scenario: Caller %d
    Given I call "Log in" once with:
      | user     | demo   |
      | password | secret |
    When I log "token=$token"
    And I authenticate requests with the bearer token "$token"
    And I send a GET request to "/api/me"
    Then I expect the response status to equal 200
`
	var feature strings.Builder
	feature.WriteString("Feature: callers\n")
	for i := 1; i <= 4; i++ {
		feature.WriteString(strings.Replace(scenario, "%d", string(rune('0'+i)), 1))
	}
	dir := apiProject(t, map[string]string{
		"features/callers.feature": feature.String(),
		"features/flows/login.feature": `@flow
Feature: flows
  Scenario: Log in
    When I send a POST request to "/api/login" with the JSON:
      """json
      { "username": "$user", "password": "$password" }
      """
    Then I remember the response field "token" as "token"
`,
	})
	res := ferridriver(t, dir, "bdd", "--parallel", "2", "--format", "message:m.ndjson", "--format", "summary")
	if res.code != 0 || !strings.Contains(res.stdout, "4 scenarios (4 passed)") {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	var tokens []string
	workers := map[string]bool{}
	for _, e := range oracles.ReadStream(t, filepath.Join(dir, "m.ndjson")) {
		if a := e.Attachment; a != nil && strings.HasPrefix(a.Body, "token=") {
			tokens = append(tokens, a.Body)
		}
		if s := e.TestCaseStarted; s != nil && s.WorkerID != nil {
			workers[*s.WorkerID] = true
		}
	}
	if len(tokens) != 4 || len(slices.Compact(slices.Sorted(slices.Values(tokens)))) != 1 {
		t.Fatalf("the scenarios' tokens differ (the flow ran more than once): %q", tokens)
	}
	t.Logf("4 scenarios on %d workers, one login: %s", len(workers), tokens[0])
}

// Examples from a CSV or JSON file are rows of the outline before the run:
// --dry-run lists one pickle per row; a missing file is a usage error
// (exit 2) with the tag's place.
func TestExamplesFromFilesThroughTheBinary(t *testing.T) {
	dir := apiProject(t, map[string]string{
		"features/users.feature": `Feature: users
  Scenario Outline: user <id> is <name>
    When I send a GET request to "/api/users/<id>"
    Then I expect the response field "name" to equal "<name>"

    @from:data/users.csv
    Examples: from a CSV file

    @from:data/more.json
    Examples: from a JSON file
`,
		"features/data/users.csv": "id,name\n1,Ada Lovelace\n2,Grace Hopper\n",
		"features/data/more.json": `[{"id": 3, "name": "Alan Turing"}]`,
	})
	res := ferridriver(t, dir, "bdd", "--dry-run", "--format", "message:m.ndjson")
	if res.code != 0 {
		t.Fatalf("dry run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	var names []string
	cases := 0
	for _, e := range oracles.ReadStream(t, filepath.Join(dir, "m.ndjson")) {
		if p := e.Pickle; p != nil {
			names = append(names, p.Name)
		}
		if e.TestCase != nil {
			cases++
		}
	}
	want := []string{"user 1 is Ada Lovelace", "user 2 is Grace Hopper", "user 3 is Alan Turing"}
	if !slices.Equal(names, want) || cases != 3 {
		t.Fatalf("pickles %q (%d test cases), want %q", names, cases, want)
	}
	if res := ferridriver(t, dir, "bdd", "--format", "summary"); res.code != 0 || !strings.Contains(res.stdout, "3 scenarios (3 passed)") {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	testenv.WriteFiles(t, dir, map[string]string{"features/users.feature": strings.Replace(string(mustRead(t, filepath.Join(dir, "features/users.feature"))), "data/more.json", "data/nope.json", 1)})
	res = ferridriver(t, dir, "bdd", "--dry-run")
	if res.code != 2 || !strings.Contains(res.stderr, "features/users.feature:9:5: @from:data/nope.json: data/nope.json does not exist (looked for features/data/nope.json") {
		t.Fatalf("a missing file: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

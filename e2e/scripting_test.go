package e2e

import (
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// Step code runs the commands of [scripting.allow] through the global
// `commands`, and only those; process.env is the allow-list.
func TestStepsUseScriptingCommandsAndEnv(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": `[scripting]
allowEnv = ["FD_VISIBLE", "FD_UNSET"]
[scripting.allow.commands]
greet = { run = ["printf", "hello %s", "${name}"] }
`,
		"features/a.feature": "Feature: a\n  Scenario: s\n    Given the commands and env work\n",
		"steps/s.ts": `import { Given } from '@cucumber/cucumber'
import assert from 'node:assert'
declare const commands: any
Given('the commands and env work', async function () {
  assert.strictEqual(await commands.run('greet', { name: 'ann; rm -rf /' }), 'hello ann; rm -rf /')
  await assert.rejects(commands.run('rm'), /rm/)
  assert.deepStrictEqual(Object.keys(process.env), ['FD_VISIBLE'])
  assert.strictEqual(process.env.FD_VISIBLE, 'yes')
})
`,
	})
	t.Setenv("FD_VISIBLE", "yes")
	t.Setenv("FD_HIDDEN", "no")
	res := ferridriver(t, dir, "bdd", "--format", "summary")
	if res.code != 0 || !strings.Contains(res.stdout, "1 scenario (1 passed)") {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}

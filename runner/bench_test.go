package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/messages"
)

// BenchmarkLogicSuite runs the benchmark's logic-only suite in-process:
// 1,000 scenarios x 5 steps with a data table and a doc string.
func BenchmarkLogicSuite(b *testing.B) {
	dir := b.TempDir()
	writeLogicSuite(b, dir, 10, 100)
	for b.Loop() {
		r, err := Prepare(Options{Dir: dir, Strict: true})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		res := r.Execute(context.Background(), SinkFunc(func(*messages.Envelope) { n++ }))
		if !res.Success {
			b.Fatal("suite failed")
		}
	}
}

func writeLogicSuite(tb testing.TB, dir string, files, perFile int) {
	os.MkdirAll(filepath.Join(dir, "features"), 0o755)
	os.MkdirAll(filepath.Join(dir, "steps"), 0o755)
	for f := range files {
		var sb strings.Builder
		fmt.Fprintf(&sb, "Feature: Logic %d\n\n", f)
		for s := range perFile {
			n := f*perFile + s
			fmt.Fprintf(&sb, "  Scenario: scenario %d\n    Given a basket with %d apples\n    When I add these fruits:\n      | fruit  | count |\n      | pear   | 2     |\n      | banana | %d     |\n    And I note:\n      \"\"\"\n      basket %d\n      \"\"\"\n    Then the basket has %d fruits\n    And the note mentions \"basket %d\"\n\n", n, n%7, n%5, n, n%7+2+n%5, n)
		}
		os.WriteFile(filepath.Join(dir, "features", fmt.Sprintf("logic_%02d.feature", f)), []byte(sb.String()), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "steps", "logic.ts"), []byte(`import { Given, When, Then, DataTable } from '@cucumber/cucumber'
import assert from 'node:assert'
interface Basket { count: number; note: string }
Given('a basket with {int} apples', function (this: Basket, n: number) { this.count = n })
When('I add these fruits:', function (this: Basket, table: DataTable) { for (const row of table.hashes()) this.count += Number(row.count) })
When('I note:', function (this: Basket, text: string) { this.note = text })
Then('the basket has {int} fruits', function (this: Basket, n: number) { assert.strictEqual(this.count, n) })
Then('the note mentions {string}', function (this: Basket, s: string) { assert.ok(this.note.includes(s)) })
`), 0o644)
}

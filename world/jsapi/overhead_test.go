package jsapi_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestBindingOverhead measures the benchmark scenario's five operations
// (goto, fill, click, toHaveText, toHaveCount) through the JS bindings and
// directly with playwright-go, interleaved on one page so that machine
// load affects both alike, and logs the medians. Run it with
// FERRIDRIVER_OVERHEAD=1 (it is a measurement, not a check).
func TestBindingOverhead(t *testing.T) {
	if os.Getenv("FERRIDRIVER_OVERHEAD") == "" {
		t.Skip("set FERRIDRIVER_OVERHEAD=1 to measure")
	}
	e := newEnv(t)
	p, err := e.s.Page(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ops := []string{"goto", "fill", "click", "toHaveText", "toHaveCount"}
	js := map[string][]time.Duration{}
	gov := map[string][]time.Duration{}
	a := playwright.NewPlaywrightAssertions(5000)
	must(t, e.vm.Runtime().Set("__now", func() float64 { return float64(time.Now().UnixNano()) / 1e6 }))
	e.ok(`globalThis.T = {};
		globalThis.scenario = async (n) => {
			let t = __now();
			const mark = (k) => { const now = __now(); T[k] = now - t; t = now; };
			t = __now();
			await page.goto(baseURL + '/todo.html'); mark('goto');
			await page.getByLabel('New todo').fill('Todo ' + n); mark('fill');
			await page.getByRole('button', { name: 'Add', exact: true }).click(); mark('click');
			await expect(page.getByTestId('todo-count')).toHaveText('1 item left'); mark('toHaveText');
			await expect(page.getByTestId('todo-item')).toHaveCount(1); mark('toHaveCount');
			await page.evaluate(() => localStorage.clear());
		};`)
	for i := 0; i < 30; i++ {
		e.ok(fmt.Sprintf(`await scenario(%d)`, i))
		for _, op := range ops {
			ms := e.ok(`return T['` + op + `']`).ToFloat()
			js[op] = append(js[op], time.Duration(ms*float64(time.Millisecond)))
		}
		step := func(op string, f func() error) {
			start := time.Now()
			if err := f(); err != nil {
				t.Fatal(op, err)
			}
			gov[op] = append(gov[op], time.Since(start))
		}
		step("goto", func() error { _, err := p.Goto(e.url + "/todo.html"); return err })
		step("fill", func() error { return p.GetByLabel("New todo").Fill(fmt.Sprintf("Todo %d", i)) })
		step("click", func() error {
			return p.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Add", Exact: playwright.Bool(true)}).Click()
		})
		step("toHaveText", func() error { return a.Locator(p.GetByTestId("todo-count")).ToHaveText("1 item left") })
		step("toHaveCount", func() error { return a.Locator(p.GetByTestId("todo-item")).ToHaveCount(1) })
		if _, err := p.Evaluate("() => localStorage.clear()"); err != nil {
			t.Fatal(err)
		}
	}
	median := func(d []time.Duration) time.Duration {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	var b strings.Builder
	var tj, tg time.Duration
	for _, op := range ops {
		mj, mg := median(js[op]), median(gov[op])
		tj, tg = tj+mj, tg+mg
		fmt.Fprintf(&b, "%-12s js %8v  go %8v  overhead %8v\n", op, mj.Round(10*time.Microsecond), mg.Round(10*time.Microsecond), (mj - mg).Round(10*time.Microsecond))
	}
	fmt.Fprintf(&b, "%-12s js %8v  go %8v  overhead %8v", "total", tj.Round(10*time.Microsecond), tg.Round(10*time.Microsecond), (tj - tg).Round(10*time.Microsecond))
	t.Log("\n" + b.String())
}

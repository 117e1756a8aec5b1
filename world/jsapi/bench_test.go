package jsapi_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// Per-call overhead of the bindings: the same operation through JS (a
// Promise settled on the loop) and directly with playwright-go. The
// difference is the cost of the binding.
//
//	go test ./world/jsapi -run NONE -bench . -benchtime 300x

func benchEnv(b *testing.B) (*env, playwright.Page) {
	b.Helper()
	e := newEnv(b)
	p, err := e.s.Page(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.run(`await page.setContent('<p data-testid="t">hello</p><input>')`); err != nil {
		b.Fatal(err)
	}
	return e, p
}

func BenchmarkTextContentJS(b *testing.B) {
	e, _ := benchEnv(b)
	b.ResetTimer()
	if _, err := e.run(`const l = page.getByTestId('t'); for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) await l.textContent();`); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkTextContentGo(b *testing.B) {
	_, p := benchEnv(b)
	l := p.GetByTestId("t")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.TextContent(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToHaveTextJS(b *testing.B) {
	e, _ := benchEnv(b)
	b.ResetTimer()
	if _, err := e.run(`const l = page.getByTestId('t'); for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) await expect(l).toHaveText('hello');`); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkToHaveTextGo(b *testing.B) {
	_, p := benchEnv(b)
	a := playwright.NewPlaywrightAssertions(5000)
	l := p.GetByTestId("t")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.Locator(l).ToHaveText("hello"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFillJS(b *testing.B) {
	e, _ := benchEnv(b)
	b.ResetTimer()
	if _, err := e.run(`const l = page.locator('input'); for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) await l.fill('x' + i);`); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkFillGo(b *testing.B) {
	_, p := benchEnv(b)
	l := p.Locator("input")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := l.Fill("x" + strconv.Itoa(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLocatorChainJS is the synchronous part: building a locator.
func BenchmarkLocatorChainJS(b *testing.B) {
	e, _ := benchEnv(b)
	b.ResetTimer()
	if _, err := e.run(`for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) page.getByRole('button', { name: 'Add' }).filter({ hasText: 'x' }).first();`); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkGenericMatcherJS is expect(1).toBe(1).
func BenchmarkGenericMatcherJS(b *testing.B) {
	e, _ := benchEnv(b)
	b.ResetTimer()
	if _, err := e.run(`for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) expect(i).toBe(i);`); err != nil {
		b.Fatal(err)
	}
}

//go:build linux

package world

import (
	"context"
	"fmt"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// BenchmarkScenario is one browser test case of the benchmark suite's shape
// (fresh context+page, open page, fill, click, assert text, assert count),
// with and without the next context prepared in the background.
//
//	go test -run '^$' -bench Scenario -benchtime 30x ./world/
func BenchmarkScenario(b *testing.B) {
	testenv.NeedBrowser(b)
	for _, prewarm := range []bool{false, true} {
		b.Run(fmt.Sprintf("prewarm=%v", prewarm), func(b *testing.B) {
			base := demo(b)
			l, err := NewLauncher(Config{BaseURL: base, OutputDir: b.TempDir()}, Options{AutoPrewarm: prewarm})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			ctx := context.Background()
			if _, err := l.Browser(ctx, 0); err != nil {
				b.Fatal(err)
			}
			expect := playwright.NewPlaywrightAssertions(5000)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s := l.NewSession(0, "bench")
				p, err := s.Page(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.Goto("/todo.html"); err != nil {
					b.Fatal(err)
				}
				if err := p.GetByLabel("New todo").Fill("Buy milk"); err != nil {
					b.Fatal(err)
				}
				if err := p.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Add"}).Click(); err != nil {
					b.Fatal(err)
				}
				if err := expect.Locator(p.GetByTestId("todo-count")).ToHaveText("1 item left"); err != nil {
					b.Fatal(err)
				}
				if err := expect.Locator(p.GetByTestId("todo-item")).ToHaveCount(1); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Close(false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

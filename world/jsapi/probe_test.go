package jsapi

import (
	"context"
	"fmt"
	"testing"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/world"
	"github.com/playwright-community/playwright-go"
)

func TestProbe(t *testing.T) {
	ctx := context.Background()
	url, _ := demoapp.Serve(ctx, "127.0.0.1:0")
	l, err := world.NewLauncher(world.Config{OutputDir: t.TempDir()}, world.Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s := l.NewSession(0, "probe")
	p, err := s.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Goto("http://127.0.0.1:1/")
	fmt.Printf("GOTO: %#v\n%v\n", err, err)
	_, err = p.Goto(url + "/todo.html")
	fmt.Println("goto ok", err)
	err = p.Locator("#nope").Click(playwright.LocatorClickOptions{Timeout: playwright.Float(500)})
	fmt.Printf("CLICK: %v\n", err)
	err = p.Locator("button").Click(playwright.LocatorClickOptions{Timeout: playwright.Float(500)})
	fmt.Printf("STRICT: %v\n", err)
	a := playwright.NewPlaywrightAssertions(500)
	err = a.Locator(p.GetByTestId("todo-count")).ToHaveText("3 items left")
	fmt.Printf("EXPECT: %q\n", err)
	err = a.Locator(p.Locator("#nope")).ToHaveText("3 items left")
	fmt.Printf("EXPECT404: %q\n", err)
	err = a.Locator(p.Locator("#nope")).ToBeVisible()
	fmt.Printf("VIS: %q\n", err)
	err = a.Locator(p.Locator("li")).ToHaveCount(3)
	fmt.Printf("COUNT: %q\n", err)
	err = a.Locator(p.Locator("li")).ToHaveText([]string{"a"})
	fmt.Printf("ARR: %q\n", err)
	err = a.Locator(p.Locator("button")).ToHaveText("x")
	fmt.Printf("STRICTEXP: %q\n", err)
	err = a.Page(p).ToHaveTitle("x")
	fmt.Printf("TITLE: %q\n", err)
	v, err := p.Evaluate("() => ({a: 1, b: [1.5, 'x', null, undefined], c: new Date(0), e: undefined, f: NaN, g: -0, h: 2n**70n, i: new Map([[1,2]]), u: new URL('http://x/')})")
	fmt.Printf("EVAL: %#v %v\n", v, err)
	v, err = p.Evaluate("(a) => a.x + 1", map[string]any{"x": 41})
	fmt.Printf("EVAL2: %#v %v\n", v, err)
	v, err = p.Evaluate("undefined")
	fmt.Printf("EVAL3: %#v %v\n", v, err)
	_, err = p.Evaluate("() => { throw new Error('boom') }")
	fmt.Printf("EVALERR: %q\n", err)
}

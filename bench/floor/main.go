// Command floor is the lower bound of the browser benchmark: the same
// browser work as the benchmark's scenarios, done with playwright-go and
// no test runner at all. One Chromium is shared by -workers goroutines;
// every scenario gets a fresh context and page (the isolation a runner
// gives each test case), then opens the todo page, fills the new todo,
// clicks Add, and asserts the counter text and the item count, as the
// benchmark's five steps do.
//
//	floor -base http://127.0.0.1:4173 -scenarios 100 -workers 2
//
// The driver and browser are found as ferridriver finds them (its cache,
// node on PATH, -browser-path), and Chromium gets the same launch flags.
package main

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/install"
)

func main() {
	base := flag.String("base", "", "base URL of the demo app (required)")
	scenarios := flag.Int("scenarios", 100, "number of scenarios")
	workers := flag.Int("workers", 1, "goroutines sharing the browser")
	browserPath := flag.String("browser-path", "/usr/bin/chromium", "Chromium executable")
	verbose := flag.Bool("v", false, "print timings")
	flag.Parse()
	if *base == "" || *scenarios < 1 || *workers < 1 {
		flag.Usage()
		os.Exit(2)
	}
	start := time.Now()
	if err := run(*base, *browserPath, *scenarios, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "floor: %d scenarios, %d workers: %v\n", *scenarios, *workers, time.Since(start).Round(time.Millisecond))
	}
}

func run(base, browserPath string, scenarios, workers int) error {
	drv, err := install.FindDriver("")
	if err != nil {
		return err
	}
	node, err := install.FindNode()
	if err != nil {
		return err
	}
	if err := os.Setenv("PLAYWRIGHT_NODEJS_PATH", node.Path); err != nil {
		return err
	}
	pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: drv.Dir, SkipInstallBrowsers: true})
	if err != nil {
		return fmt.Errorf("start the driver: %w", err)
	}
	defer pw.Stop()
	browser, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(browserPath),
		Headless:       playwright.Bool(true),
		Args:           world.ChromiumArgs(os.Geteuid() == 0, nil), // ferridriver's launch flags
	})
	if err != nil {
		return fmt.Errorf("launch %s: %w", browserPath, err)
	}
	defer browser.Close()

	jobs := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				if err := scenario(browser, base, n); err != nil {
					errs <- fmt.Errorf("scenario %d: %w", n, err)
					for range jobs { // drain, so the producer finishes
					}
					return
				}
			}
		}()
	}
	for n := range scenarios {
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	close(errs)
	return <-errs
}

// expect is Playwright's web-first assertions with their default timeout.
var expect = playwright.NewPlaywrightAssertions(5000)

// scenario is one test case: a fresh context and page, the five steps,
// then the context closed.
func scenario(browser playwright.Browser, base string, n int) (err error) {
	ctx, err := browser.NewContext(playwright.BrowserNewContextOptions{BaseURL: playwright.String(base)})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := ctx.Close(); err == nil {
			err = cerr
		}
	}()
	page, err := ctx.NewPage()
	if err != nil {
		return err
	}
	if _, err := page.Goto("/todo.html"); err != nil {
		return err
	}
	if err := page.GetByLabel("New todo").Fill(fmt.Sprintf("Todo %d", n)); err != nil {
		return err
	}
	if err := page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Add", Exact: playwright.Bool(true)}).Click(); err != nil {
		return err
	}
	if err := expect.Locator(page.GetByTestId("todo-count")).ToHaveText("1 item left"); err != nil {
		return err
	}
	return expect.Locator(page.GetByTestId("todo-item")).ToHaveCount(1)
}

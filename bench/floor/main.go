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
//
// With -overlap each goroutine does what ferridriver does with fewer
// workers than CPUs: it prepares the next scenario's context and page once
// the current page has loaded, and closes a finished context in the
// background. That is the lower bound of a runner that overlaps this way.
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
	overlap := flag.Bool("overlap", false, "prepare the next scenario's context and page while one runs, close contexts in the background")
	verbose := flag.Bool("v", false, "print timings")
	flag.Parse()
	if *base == "" || *scenarios < 1 || *workers < 1 {
		flag.Usage()
		os.Exit(2)
	}
	start := time.Now()
	if err := run(*base, *browserPath, *scenarios, *workers, *overlap); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "floor: %d scenarios, %d workers: %v\n", *scenarios, *workers, time.Since(start).Round(time.Millisecond))
	}
}

func run(base, browserPath string, scenarios, workers int, overlap bool) error {
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
			w := worker{browser: browser, base: base, overlap: overlap}
			defer w.finish()
			for n := range jobs {
				if err := w.scenario(n); err != nil {
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
	if err := <-errs; err != nil {
		return err
	}
	// Every context made, prepared or not, must be closed: one left open
	// would be a renderer the measured memory should not have.
	if n := len(browser.Contexts()); n > 0 {
		return fmt.Errorf("%d browser contexts left open", n)
	}
	return nil
}

// expect is Playwright's web-first assertions with their default timeout.
var expect = playwright.NewPlaywrightAssertions(5000)

// worker runs scenarios one after the other on a shared browser.
type worker struct {
	browser playwright.Browser
	base    string
	overlap bool
	// next is the context and page being prepared for the next scenario
	// (overlap only); closing counts the contexts being closed.
	next    chan pageSet
	closing sync.WaitGroup
}

// pageSet is a fresh context with its page, or the error making it.
type pageSet struct {
	ctx  playwright.BrowserContext
	page playwright.Page
	err  error
}

func (w *worker) newPageSet() pageSet {
	ctx, err := w.browser.NewContext(playwright.BrowserNewContextOptions{BaseURL: playwright.String(w.base)})
	if err != nil {
		return pageSet{err: err}
	}
	page, err := ctx.NewPage()
	if err != nil {
		_ = ctx.Close()
		return pageSet{err: err}
	}
	return pageSet{ctx: ctx, page: page}
}

// prepare starts making the next scenario's page set, unless one is on its way.
func (w *worker) prepare() {
	if w.next != nil {
		return
	}
	w.next = make(chan pageSet, 1)
	go func(ch chan pageSet) { ch <- w.newPageSet() }(w.next)
}

// take returns the prepared page set, or a new one.
func (w *worker) take() pageSet {
	if w.next == nil {
		return w.newPageSet()
	}
	ps := <-w.next
	w.next = nil
	return ps
}

// finish closes what is left: a prepared page set, contexts being closed.
func (w *worker) finish() {
	if w.next != nil {
		if ps := <-w.next; ps.err == nil {
			_ = ps.ctx.Close()
		}
	}
	w.closing.Wait()
}

// scenario is one test case: a fresh context and page, the five steps,
// then the context closed.
func (w *worker) scenario(n int) (err error) {
	ps := w.take()
	if ps.err != nil {
		return ps.err
	}
	defer func() {
		if !w.overlap {
			if cerr := ps.ctx.Close(); err == nil {
				err = cerr
			}
			return
		}
		w.closing.Add(1)
		go func() {
			defer w.closing.Done()
			_ = ps.ctx.Close()
		}()
	}()
	page := ps.page
	if _, err := page.Goto("/todo.html"); err != nil {
		return err
	}
	if w.overlap {
		w.prepare()
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

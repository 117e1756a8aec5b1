//go:build linux

package world

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world/install"
)

func TestLazyLaunchStartsNothing(t *testing.T) {
	testenv.NeedBrowser(t)
	l := newLauncher(t, Config{}, Options{AutoPrewarm: true})
	before := driverChildren()
	for i := 0; i < 3; i++ {
		s := l.NewSession(0, "logic only")
		if s.Started() {
			t.Fatal("a new session must not create a page")
		}
		if art, err := s.Close(true); err != nil || art.Screenshot != nil {
			t.Fatalf("Close of an unused session: %v, %+v", err, art)
		}
	}
	if l.Started() {
		t.Error("launcher reports a started browser")
	}
	if pids := l.ProcessIDs(); len(pids) != 0 {
		t.Errorf("browser processes running: %v", pids)
	}
	if got := driverChildren(); len(got) != len(before) {
		t.Errorf("a Playwright driver was started: %v", got)
	}
}

func TestSharedBrowserConcurrentSessions(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base}, Options{})
	ctx := context.Background()
	var wg sync.WaitGroup
	browsers := make([]playwright.Browser, 2)
	errs := make([]error, 2)
	start := time.Now()
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := l.NewSession(w, "concurrent")
			defer s.Close(false)
			p, err := s.Page(ctx)
			if err != nil {
				errs[w] = err
				return
			}
			if _, err := p.Goto("/todo.html"); err != nil {
				errs[w] = err
				return
			}
			browsers[w], errs[w] = s.Browser(ctx)
		}()
	}
	wg.Wait()
	t.Logf("2 concurrent sessions incl. first launch: %v", time.Since(start))
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if browsers[0] != browsers[1] {
		t.Error("the two workers got different browsers; want one shared browser")
	}
	if pids := l.BrowserPIDs(); len(pids) != 1 {
		t.Errorf("want exactly 1 browser process, got %v", pids)
	}
}

func TestPerWorkerBrowsers(t *testing.T) {
	testenv.NeedBrowser(t)
	l := newLauncher(t, Config{PerWorker: true}, Options{})
	ctx := context.Background()
	b0, err := l.Browser(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	b1, err := l.Browser(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b0 == b1 {
		t.Error("perWorker: workers share a browser")
	}
	if pids := l.BrowserPIDs(); len(pids) != 2 {
		t.Errorf("perWorker: want 2 browser processes, got %v", pids)
	}
}

func TestContextIsolation(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base}, Options{AutoPrewarm: true})
	ctx := context.Background()

	s1 := l.NewSession(0, "first")
	p, err := s1.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustGoto(t, p, "/login")
	must(t, p.GetByLabel("Username").Fill("demo"))
	must(t, p.GetByLabel("Password").Fill("secret"))
	must(t, p.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Log in"}).Click())
	must(t, p.WaitForURL("**/welcome"))
	mustGoto(t, p, "/todo.html")
	must(t, p.GetByLabel("New todo").Fill("leak me"))
	must(t, p.GetByLabel("New todo").Press("Enter"))
	c1, _ := s1.Context(ctx)
	cookies, err := c1.Cookies()
	if err != nil || len(cookies) == 0 {
		t.Fatalf("session 1 should hold the login cookie: %v %v", cookies, err)
	}
	if _, err := s1.Close(false); err != nil {
		t.Fatal(err)
	}

	s2 := l.NewSession(0, "second")
	defer s2.Close(false)
	p2, err := s2.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := s2.Context(ctx)
	if c2 == c1 {
		t.Fatal("the second session reused the first one's context")
	}
	if cookies, _ := c2.Cookies(); len(cookies) != 0 {
		t.Errorf("cookies leaked into the next session: %v", cookies)
	}
	mustGoto(t, p2, "/todo.html")
	v, err := p2.Evaluate(`() => localStorage.getItem("demo-todos")`)
	if err != nil {
		t.Fatal(err)
	}
	if v != nil {
		t.Errorf("localStorage leaked into the next session: %v", v)
	}
	mustGoto(t, p2, "/welcome")
	if u := p2.URL(); u != base+"/login" {
		t.Errorf("not logged in any more, want redirect to /login, got %s", u)
	}
}

func TestContextOptionsApplied(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	nav := 7000.0
	l := newLauncher(t, Config{
		BaseURL: base, Viewport: &Viewport{Width: 800, Height: 600}, Locale: "fr-FR",
		TimezoneID: "Asia/Tokyo", ColorScheme: "dark", NavigationTimeout: &nav,
	}, Options{})
	s := l.NewSession(0, "options")
	defer s.Close(false)
	p, err := s.Page(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mustGoto(t, p, "/table.html")
	if p.URL() != base+"/table.html" {
		t.Errorf("relative goto: url %s", p.URL())
	}
	got, err := p.Evaluate(`() => [innerWidth, innerHeight, navigator.language,
		Intl.DateTimeFormat().resolvedOptions().timeZone, matchMedia("(prefers-color-scheme: dark)").matches]`)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{800, 600, "fr-FR", "Asia/Tokyo", true}
	arr := got.([]any)
	for i := range want {
		if arr[i] != want[i] {
			t.Errorf("option %d: got %v, want %v (all: %v)", i, arr[i], want[i], arr)
		}
	}
}

func TestDefaultViewport(t *testing.T) {
	testenv.NeedBrowser(t)
	l := newLauncher(t, Config{}, Options{})
	s := l.NewSession(0, "default viewport")
	defer s.Close(false)
	p, err := s.Page(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Evaluate(`() => innerWidth + "x" + innerHeight`)
	if err != nil || got != "1280x720" {
		t.Errorf("default viewport: %v %v", got, err)
	}
}

func TestScreenshotOnFailure(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\n")
	// only-on-failure (the default): the failure screenshot is taken when
	// the step fails (browserenv.StepFailed), so Close takes none, failed
	// or not. screenshot = on: Close takes one, failed or not.
	for _, mode := range []Mode{ModeOnlyOnFailure, ModeOn} {
		l := newLauncher(t, Config{BaseURL: base, Screenshot: mode}, Options{})
		for _, failed := range []bool{true, false} {
			s := l.NewSession(0, "shot")
			p, err := s.Page(ctx)
			if err != nil {
				t.Fatal(err)
			}
			mustGoto(t, p, "/")
			art, err := s.Close(failed)
			if err != nil {
				t.Fatal(err)
			}
			if mode == ModeOn && !bytes.HasPrefix(art.Screenshot, png) {
				t.Errorf("screenshot = on, failed %v: want PNG bytes, got %d bytes", failed, len(art.Screenshot))
			}
			if mode == ModeOnlyOnFailure && art.Screenshot != nil {
				t.Errorf("only-on-failure, failed %v: want no screenshot from Close, got %d bytes", failed, len(art.Screenshot))
			}
		}
	}
}

func TestTraceRetainOnFailure(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base, Trace: ModeRetainOnFailure, Screenshot: ModeOff}, Options{})
	ctx := context.Background()
	for _, failed := range []bool{true, false} {
		s := l.NewSession(1, "a scenario / with: odd name")
		p, err := s.Page(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mustGoto(t, p, "/todo.html")
		art, err := s.Close(failed)
		if err != nil {
			t.Fatal(err)
		}
		if art.Screenshot != nil {
			t.Error("screenshot off: got one")
		}
		if failed {
			st, err := os.Stat(art.TracePath)
			if err != nil || st.Size() == 0 {
				t.Errorf("failed: want a trace zip, got %q (%v)", art.TracePath, err)
			}
		} else if art.TracePath != "" {
			t.Errorf("passed: want no trace kept, got %s", art.TracePath)
		}
	}
}

func TestCrashRecovery(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base}, Options{AutoPrewarm: true})
	ctx := context.Background()
	s := l.NewSession(0, "doomed")
	p, err := s.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustGoto(t, p, "/")
	pids := l.BrowserPIDs()
	if len(pids) != 1 {
		t.Fatalf("want 1 browser process, got %v", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the crash to be noticed", 10*time.Second, s.Crashed)
	_, err = p.Goto("/todo.html")
	if err == nil {
		t.Fatal("goto on a killed browser succeeded")
	}
	if err := s.Explain(err); !errors.Is(err, ErrBrowserCrashed) {
		t.Errorf("Explain: want ErrBrowserCrashed, got %v", err)
	} else {
		t.Logf("the current test case sees: %v", err)
	}
	if _, err := s.Close(true); !errors.Is(err, ErrBrowserCrashed) {
		t.Errorf("Close after crash: want ErrBrowserCrashed, got %v", err)
	}

	start := time.Now()
	s2 := l.NewSession(0, "after crash")
	defer s2.Close(false)
	p2, err := s2.Page(ctx)
	if err != nil {
		t.Fatalf("the next session must relaunch the browser: %v", err)
	}
	mustGoto(t, p2, "/todo.html")
	t.Logf("relaunch + context + page + goto: %v", time.Since(start))
	if err := p2.GetByText("0 items left").WaitFor(); err != nil {
		t.Error(err)
	}
	waitFor(t, "the killed browser's processes to go", 10*time.Second, func() bool { return len(l.BrowserPIDs()) == 1 })
}

func TestDriverCrashRecovery(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base}, Options{})
	ctx := context.Background()
	before := driverChildren()
	s := l.NewSession(0, "driver dies")
	p, err := s.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustGoto(t, p, "/")
	var drivers []int
	for pid := range driverChildren() {
		if !before[pid] {
			drivers = append(drivers, pid)
		}
	}
	if len(drivers) != 1 {
		t.Fatalf("want 1 new driver process, got %v", drivers)
	}
	if err := syscall.Kill(drivers[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the driver's death to be noticed", 10*time.Second, s.Crashed)
	_, err = p.Goto("/todo.html")
	if err := s.Explain(err); !errors.Is(err, ErrBrowserCrashed) {
		t.Errorf("Explain: want ErrBrowserCrashed, got %v", err)
	}
	if _, err := s.Close(true); !errors.Is(err, ErrBrowserCrashed) {
		t.Errorf("Close: want ErrBrowserCrashed, got %v", err)
	}
	s2 := l.NewSession(0, "next")
	defer s2.Close(false)
	p2, err := s2.Page(ctx)
	if err != nil {
		t.Fatalf("the next session must restart the driver and the browser: %v", err)
	}
	mustGoto(t, p2, "/todo.html")
}

func TestCloseLeavesNoProcesses(t *testing.T) {
	testenv.NeedBrowser(t)
	l, err := NewLauncher(Config{OutputDir: t.TempDir()}, Options{AutoPrewarm: true})
	if err != nil {
		t.Fatal(err)
	}
	s := l.NewSession(0, "x")
	if _, err := s.Page(context.Background()); err != nil {
		t.Fatal(err)
	}
	exe := l.ExecutablePath()
	all := l.ProcessIDs()
	// Playwright gives each browser its own profile dir: a unique marker
	// on the browser's command line.
	var profile string
	for _, pid := range l.BrowserPIDs() {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		for _, arg := range strings.Split(string(b), "\x00") {
			if strings.HasPrefix(arg, "--user-data-dir=") {
				profile = arg
			}
		}
	}
	if profile == "" || len(processesRunning(profile)) == 0 {
		t.Fatalf("no browser process with a --user-data-dir found")
	}
	if len(all) < 2 {
		t.Fatalf("expected a browser process tree, got %v", all)
	}
	t.Logf("browser %s: %d processes carry marker %s", exe, len(all), l.Marker())
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if left := l.ProcessIDs(); len(left) != 0 {
		t.Errorf("processes with this launcher's marker left: %v", left)
	}
	for _, pid := range all {
		if err := syscall.Kill(pid, 0); err == nil && !processGone(pid) {
			t.Errorf("process %d still alive", pid)
		}
	}
	if left := processesRunning(profile); len(left) != 0 {
		t.Errorf("processes with %s still running: %v", profile, left)
	}
	if d := driverChildren(); len(d) != 0 {
		t.Errorf("driver processes left: %v", d)
	}
	if _, err := s.Page(context.Background()); err == nil {
		t.Error("a session must not work after Launcher.Close")
	}
	if _, err := l.NewSession(0, "y").Page(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("want ErrClosed, got %v", err)
	}
}

func TestPrewarmedSession(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base}, Options{AutoPrewarm: true})
	ctx := context.Background()
	s1 := l.NewSession(0, "one")
	p1, err := s1.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustGoto(t, p1, "/todo.html")
	must(t, p1.GetByLabel("New todo").Fill("mine"))
	must(t, p1.GetByLabel("New todo").Press("Enter"))
	// The next context is being prepared while s1 "runs".
	waitFor(t, "the prepared context", 10*time.Second, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		p := l.prewarmed[0]
		return p != nil && isDone(p.done)
	})
	c1, _ := s1.Context(ctx)
	if _, err := s1.Close(false); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s2 := l.NewSession(0, "two")
	defer s2.Close(false)
	p2, err := s2.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("page for the next session (prewarmed): %v", time.Since(start))
	c2, _ := s2.Context(ctx)
	if c1 == c2 {
		t.Fatal("prewarmed session reused the previous context")
	}
	mustGoto(t, p2, "/todo.html")
	if err := p2.GetByText("0 items left").WaitFor(); err != nil {
		t.Errorf("prewarmed session is not fresh: %v", err)
	}
	if n := len(c2.Pages()); n != 1 {
		t.Errorf("prewarmed context has %d pages, want 1", n)
	}
}

// A context prepared before a test case rewrote the storageState file (a
// login scenario saving it for the next ones) is not used: the next
// session gets the new state.
func TestPrewarmedSessionStorageStateChanged(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	state := filepath.Join(t.TempDir(), "state.json")
	writeState := func(value string) {
		t.Helper()
		js := `{"cookies":[{"name":"who","value":"` + value + `","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"}],"origins":[]}`
		if err := os.WriteFile(state, []byte(js), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeState("old")
	l := newLauncher(t, Config{BaseURL: base, StorageState: state}, Options{AutoPrewarm: true})
	ctx := context.Background()
	s1 := l.NewSession(0, "login")
	if _, err := s1.Page(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the prepared context", 10*time.Second, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		p := l.prewarmed[0]
		return p != nil && isDone(p.done)
	})
	writeState("logged-in") // the login scenario saves its state
	if _, err := s1.Close(false); err != nil {
		t.Fatal(err)
	}
	s2 := l.NewSession(0, "next")
	defer s2.Close(false)
	c2, err := s2.Context(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cookies, err := c2.Cookies()
	if err != nil {
		t.Fatal(err)
	}
	if len(cookies) != 1 || cookies[0].Value != "logged-in" {
		t.Errorf("next session's cookies: %+v, want who=logged-in", cookies)
	}
}

func TestRequestWithoutBrowser(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base}, Options{})
	s := l.NewSession(0, "api")
	req, err := s.Request(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := req.Get("/api/health")
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Ok() {
		t.Errorf("GET /api/health: %d", resp.Status())
	}
	if l.Started() || len(l.ProcessIDs()) != 0 {
		t.Error("an API request context must not launch a browser")
	}
	if _, err := s.Close(false); err != nil {
		t.Fatal(err)
	}
}

func TestLaunchTimings(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base}, Options{})
	ctx := context.Background()
	start := time.Now()
	if _, err := l.Browser(ctx, 0); err != nil {
		t.Fatal(err)
	}
	t.Logf("driver start + browser launch: %v", time.Since(start))
	var total time.Duration
	const n = 5
	for i := 0; i < n; i++ {
		t0 := time.Now()
		s := l.NewSession(0, "timing")
		p, err := s.Page(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mustGoto(t, p, "/todo.html")
		must(t, p.GetByLabel("New todo").Fill("x"))
		must(t, p.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Add"}).Click())
		if _, err := s.Close(false); err != nil {
			t.Fatal(err)
		}
		total += time.Since(t0)
	}
	t.Logf("context+page+goto+fill+click+close, mean of %d: %v", n, total/n)
}

func mustGoto(t *testing.T, p playwright.Page, url string) {
	t.Helper()
	if _, err := p.Goto(url); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The next test case's page is prepared once the current page has loaded
// its first document, not while that navigation runs; a page that never
// navigates gets it after the fallback delay.
func TestPrewarmWaitsForTheFirstLoad(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	l := newLauncher(t, Config{BaseURL: base}, Options{AutoPrewarm: true})
	l.prewarmFallback = time.Hour
	ctx := context.Background()
	preparing := func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.prewarmed[0] != nil
	}
	s := l.NewSession(0, "navigates")
	p, err := s.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the blank page's own events, if any
	if preparing() {
		t.Fatal("the next page is being prepared before the first navigation")
	}
	mustGoto(t, p, "/todo.html")
	waitFor(t, "the next page after the first load", 10*time.Second, preparing)
	if _, err := s.Close(false); err != nil {
		t.Fatal(err)
	}

	l.prewarmFallback = 50 * time.Millisecond
	s2 := l.NewSession(0, "takes the prepared page, never navigates")
	defer s2.Close(false)
	if _, err := s2.Page(ctx); err != nil {
		t.Fatal(err)
	}
	if preparing() {
		t.Fatal("the prepared page was not taken")
	}
	waitFor(t, "the next page after the fallback", 10*time.Second, preparing)
}

// A launcher without InstallDriver downloads nothing: where the driver is
// missing, the page's error says how to install it, both ways.
func TestMissingDriverSaysHowToInstall(t *testing.T) {
	for _, opts := range []Options{{}, {InstallDriver: func(ctx context.Context, o install.Options) (*install.Driver, error) {
		return nil, errors.New("offline")
	}}} {
		l := newLauncher(t, Config{CacheDir: t.TempDir()}, opts)
		_, err := l.NewSession(0, "no driver").Page(context.Background())
		want := []string{"is not installed in", "`ferridriver install`", "InstallDriver: install.EnsureDriver"}
		if opts.InstallDriver != nil {
			want = []string{"offline"}
		}
		for _, w := range want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("InstallDriver set: %v; error %v, want it to say %q", opts.InstallDriver != nil, err, w)
			}
		}
	}
}

package jsapi_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// newStepEnv is an env with one step definition, "run", which awaits
// globalThis.body() (see runStep).
func newStepEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	entry := filepath.Join(dir, "entry.js")
	src := "const { Given } = require('@cucumber/cucumber');\nGiven('run', async function () { await globalThis.body(); });\n"
	must(t, os.WriteFile(entry, []byte(src), 0o644))
	b, err := jsbridge.Build(jsbridge.BundleOptions{Entries: []string{entry}, Dir: dir})
	must(t, err)
	return newEnvWith(t, b)
}

// runStep runs body as the step "run" with timeout, as the runner does
// (so that the step's deadline is known), and returns its error message
// and how long it took.
func (e *env) runStep(body string, timeout time.Duration) (string, time.Duration) {
	e.t.Helper()
	if _, err := e.vm.Runtime().RunString("globalThis.body = async function () {\n" + body + "\n}"); err != nil {
		e.t.Fatal(err)
	}
	world, err := e.vm.NewWorld()
	must(e.t, err)
	start := time.Now()
	out := e.vm.RunStep(e.vm.Registry().Steps[0], world, nil, nil, timeout)
	took := time.Since(start)
	if out.Err == nil {
		return "", took
	}
	var je *jsbridge.JSError
	if errors.As(out.Err, &je) {
		return je.Message, took
	}
	return out.Err.Error(), took
}

// page.setDefaultTimeout (and context.setDefaultTimeout) bound browser
// calls and waits even when the step's own timeout is shorter than the
// host's default.
func TestSetDefaultTimeoutInStep(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"page click", `page.setDefaultTimeout(500); await page.setContent('<p>x</p>'); await page.click('#missing');`},
		{"locator click", `page.setDefaultTimeout(500); await page.setContent('<p>x</p>'); await page.locator('#missing').click();`},
		{"context default", `context.setDefaultTimeout(500); await page.setContent('<p>x</p>'); await page.locator('#missing').click();`},
		{"waitForEvent", `page.setDefaultTimeout(500); await page.waitForEvent('popup');`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newStepEnv(t)
			msg, took := e.runStep(tc.body, 8*time.Second)
			if msg == "" {
				t.Fatal("step passed")
			}
			wantContains(t, msg, "500ms")
			if took > 4*time.Second {
				t.Errorf("failed after %v, want about 0.5s", took)
			}
		})
	}
}

// setDefaultTimeout(0) means no timeout, as in Playwright, not "unset":
// the page's 0 overrides its context's 500 ms, and a call is then bounded
// by the step alone.
func TestSetDefaultTimeoutZero(t *testing.T) {
	e := newStepEnv(t)
	msg, took := e.runStep(`context.setDefaultTimeout(500); page.setDefaultTimeout(0);
		await page.setContent('<p>x</p>'); await page.locator('#missing').click();`, 3*time.Second)
	if msg == "" {
		t.Fatal("step passed")
	}
	if strings.Contains(msg, "500ms") || took < 2*time.Second {
		t.Errorf("failed after %v with %q; want the step's time, not the context's 500 ms", took, msg)
	}
	msg, _ = e.runStep(`context.setDefaultTimeout(500); page.setDefaultTimeout(0);
		await page.setContent('<p>x</p>');
		setTimeout(() => page.evaluate(() => { window.open('about:blank') }), 1000);
		await page.waitForEvent('popup');`, 5*time.Second)
	if msg != "" {
		t.Errorf("waitForEvent with no timeout failed: %s", msg)
	}
}

// A dialog nobody listens to any more is dismissed, whether the last
// listener was the context's or the page's, a once or a waiter.
func TestDialogsDismissedAfterListenersGo(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		const out = [];
		await page.setContent('<p>x</p>');
		context.once('dialog', d => { out.push('context:' + d.message()); d.accept(); });
		await page.evaluate(() => alert('one'));
		await page.evaluate(() => alert('two')); // no listener: dismissed
		const waiting = context.waitForEvent('dialog');
		const shown = page.evaluate(() => alert('three'));
		out.push('waited:' + (await waiting).message());
		await (await waiting).dismiss();
		await shown;
		await page.evaluate(() => alert('four'));
		const f = d => out.push('page:' + d.message());
		page.on('dialog', async d => { f(d); await d.accept(); });
		await page.evaluate(() => alert('five'));
		page.removeAllListeners('dialog');
		out.push(String(await page.evaluate(() => confirm('six'))));
		return out.join('|');
	`)
	if want := "context:one|waited:three|page:five|false"; got.String() != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// page.frame({ url }) takes a string glob, a RegExp or a predicate.
func TestPageFrameByURL(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		await page.goto(baseURL + '/dialogs.html');
		await page.setContent('<iframe name="inner" src="' + baseURL + '/popup-content.html"></iframe>');
		await page.waitForFunction(() => document.querySelector('iframe').contentDocument?.readyState === 'complete');
		const name = f => f ? f.name() : 'null';
		return [
			name(page.frame({ url: '**/popup-content.html' })),
			name(page.frame({ url: /popup-content/ })),
			name(page.frame({ url: u => u.pathname === '/popup-content.html' })),
			name(page.frame({ url: /nowhere/ })),
			name(page.frame({ name: 'inner', url: /popup/ })),
		].join('|');
	`)
	if want := "inner|inner|inner|null|inner"; got.String() != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// A TypeError that quotes the user's text keeps it verbatim: goja's
// NewTypeError formats its first argument, so a '%' in user text used to
// come out as "%!d(MISSING)".
func TestTypeErrorsKeepPercentSigns(t *testing.T) {
	e := newStepEnv(t)
	msg, _ := e.runStep(`page.on('50%done', () => {})`, 5*time.Second)
	if want := `page.on: event "50%done" is not supported by ferridriver`; msg != want {
		t.Fatalf("got %q, want %q", msg, want)
	}
}

// storageState({ path }) creates the file's directory, as Playwright does,
// for a browser context and an API request context alike.
func TestStorageStateCreatesTheDirectory(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	ctxPath := filepath.Join(dir, "context", "state.json")
	apiPath := filepath.Join(dir, "api", "deep", "state.json")
	e.ok(`
		const { request } = __ferridriver_require('@playwright/test');
		await context.storageState({ path: ` + strconv.Quote(ctxPath) + ` });
		const api = await request.newContext();
		await api.storageState({ path: ` + strconv.Quote(apiPath) + ` });
		await api.dispose();
		return true;
	`)
	for _, p := range []string{ctxPath, apiPath} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the state file: %v", err)
		}
	}
}

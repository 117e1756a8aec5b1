package jsapi_test

import (
	"net"
	"strconv"
	"strings"
	"testing"
)

func TestLocators(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		await page.goto(baseURL + '/todo.html');
		const input = page.getByPlaceholder('What needs to be done?');
		const out = [];
		for (const todo of ['milk', 'eggs', 'bread']) {
			await input.fill(todo);
			await input.press('Enter');
		}
		const items = page.getByTestId('todo-item');
		out.push(await items.count());
		out.push((await items.all()).length);
		out.push(await items.first().getByTestId('todo-title').textContent());
		out.push(await items.last().getByTestId('todo-title').innerText());
		out.push(await items.nth(1).getByTestId('todo-title').textContent());
		out.push(await items.filter({ hasText: 'egg' }).count());
		out.push(await items.filter({ hasNotText: 'egg' }).count());
		out.push(await items.filter({ has: page.getByText('bread') }).count());
		out.push(await items.filter({ hasNot: page.getByText('bread') }).count());
		out.push(await page.getByText(/^mil/).count());
		out.push(await page.getByText('MILK').count());
		out.push(await page.getByText('MILK', { exact: true }).count());
		out.push(await page.getByRole('checkbox', { name: 'milk' }).isChecked());
		await page.getByRole('checkbox', { name: 'milk' }).check();
		out.push(await page.getByRole('checkbox', { name: 'milk' }).isChecked());
		await page.getByRole('checkbox', { name: 'milk' }).setChecked(false);
		out.push(await page.getByRole('checkbox', { name: 'milk' }).isChecked());
		await page.getByRole('checkbox', { name: 'eggs' }).click();
		out.push(await page.getByTestId('todo-count').textContent());
		await page.getByRole('checkbox', { name: 'eggs' }).uncheck();
		out.push(await page.locator('li').and(page.getByTestId('todo-item')).filter({ hasText: 'bread' }).count());
		out.push(await page.getByText('milk').or(page.getByText('eggs')).count());
		out.push(await page.locator('ul.todos').locator('li').count());
		out.push(await page.locator('ul.todos', { hasText: 'milk' }).count());
		out.push(page.getByRole('button', { name: 'Add' }).toString());
		out.push(items.filter({ hasText: 'x' }).first().toString());
		out.push(await page.getByRole('button', { name: 'Add' }).isEnabled());
		out.push(await page.getByRole('button', { name: 'Add' }).isDisabled());
		out.push(await page.getByRole('button', { name: 'Add' }).isVisible());
		out.push(await page.getByText('no such thing').isHidden());
		out.push(await input.isEditable());
		await input.fill('typed');
		out.push(await input.inputValue());
		await input.clear();
		await input.pressSequentially('abc');
		out.push(await input.inputValue());
		out.push(await input.getAttribute('placeholder'));
		out.push(String(await input.getAttribute('data-nope')));
		out.push(await page.getByTestId('todo-count').getAttribute('aria-live'));
		out.push((await page.getByTestId('todo-title').allTextContents()).join(','));
		out.push((await page.getByTestId('todo-title').allInnerTexts()).join(','));
		out.push(await page.getByTestId('todo-list').innerHTML() !== '');
		await input.focus();
		out.push(await input.evaluate(e => document.activeElement === e));
		await input.blur();
		out.push(await input.evaluate((e, arg) => e.id + arg.suffix, { suffix: '!' }));
		out.push(await page.getByTestId('todo-title').evaluateAll(els => els.length));
		const box = await input.boundingBox();
		out.push(box.width > 0 && box.height > 0);
		const png = await input.screenshot();
		out.push(png[1] === 0x50 && png[2] === 0x4e && png[3] === 0x47);
		await page.getByText('slow', { exact: false }).waitFor({ state: 'detached', timeout: 1000 });
		await page.getByRole('button', { name: 'Delete milk' }).hover();
		await page.getByRole('button', { name: 'Delete milk' }).dblclick({ trial: true });
		return out.join('|');
	`)
	want := strings.Join([]string{
		"3", "3", "milk", "bread", "eggs", "1", "2", "1", "2", "1", "1", "0", "false", "true", "false", "2 items left", "1", "2", "3", "1",
		"getByRole('button', { name: 'Add' })", "getByTestId('todo-item').filter({ hasText: 'x' }).first()",
		"true", "false", "true", "true", "true", "typed", "abc", "What needs to be done?", "null", "polite", "milk,eggs,bread", "milk,eggs,bread",
		"true", "true", "new-todo!", "3", "true", "true",
	}, "|")
	if got.String() != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFormControls(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		await page.setContent('<label>Colour <select id="c" multiple><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select></label>' +
			'<input type="file" id="f" multiple><input type="checkbox" id="x"><button onclick="this.textContent=\'clicked \' + event.detail">B</button>');
		const out = [];
		out.push((await page.getByLabel('Colour').selectOption(['r', { label: 'Blue' }])).join(','));
		out.push((await page.locator('#c').selectOption({ index: 1 })).join(','));
		await page.locator('#f').setInputFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
		out.push(await page.locator('#f').evaluate(e => e.files[0].name + ':' + e.files[0].size));
		await page.check('#x');
		out.push(await page.isChecked('#x'));
		await page.locator('button').dblclick();
		out.push(await page.textContent('button'));
		await page.fill('#c', '').catch(e => out.push('fill-select-fails'));
		return out.join('|');
	`)
	if got.String() != "r,b|g|a.txt:5|true|clicked 2|fill-select-fails" {
		t.Errorf("got %s", got)
	}
}

func TestPage(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		const out = [];
		const resp = await page.goto(baseURL + '/todo.html');
		out.push(resp.status(), resp.ok(), resp.url().endsWith('/todo.html'), resp.request().method());
		out.push(page.url().endsWith('/todo.html'));
		out.push(await page.title());
		out.push((await page.content()).includes('todo-count'));
		out.push(await page.evaluate(() => 6 * 7));
		out.push(await page.evaluate('document.title'));
		out.push(await page.evaluate(([a, b]) => a + b, [1, 2]));
		out.push(JSON.stringify(await page.evaluate((o) => ({ ...o, n: null, d: new Date(0).getTime() }), { s: 'x', a: [1, 'y'] })));
		out.push(await page.evaluate(async function named(x) { function helper(y) { return y * 2 } return helper(x); }, 21));
		out.push(String(await page.evaluate(() => localStorage.getItem('nothing'))));
		out.push((await page.evaluate(() => new Date(86400000))).getTime());
		await page.goto(baseURL + '/table.html');
		await page.goBack();
		out.push(page.url().endsWith('/todo.html'));
		await page.goForward();
		out.push(page.url().endsWith('/table.html'));
		const r2 = await page.reload();
		out.push(r2.status());
		await page.setContent('<h1>Hi</h1>');
		out.push(await page.locator('h1').textContent());
		await page.setViewportSize({ width: 800, height: 600 });
		out.push(JSON.stringify(page.viewportSize()));
		const shot = await page.screenshot({ fullPage: true });
		out.push(shot.length > 100);
		out.push(page.mainFrame().url() === page.url(), page.frames().length, page.context() === context, page.isClosed());
		await page.addInitScript((v) => { window.injected = v; }, 'yes');
		await page.goto(baseURL + '/');
		out.push(await page.evaluate(() => window.injected));
		await page.exposeFunction('twice', (n) => n * 2);
		out.push(await page.evaluate(async () => await window.twice(21)));
		await page.keyboard.press('Tab');
		await page.mouse.move(10, 10);
		await page.mouse.click(10, 10);
		await page.keyboard.type('x');
		out.push(typeof page.touchscreen.tap);
		await page.waitForLoadState('domcontentloaded');
		await page.waitForTimeout(10);
		await page.emulateMedia({ colorScheme: 'dark' });
		out.push(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches));
		page.foo = 'own';
		out.push(page.foo);
		return out.join('|');
	`)
	want := "200|true|true|GET|true|Todo list · Demo app|true|42|Todo list · Demo app|3|" +
		`{"a":[1,"y"],"d":0,"n":null,"s":"x"}` + "|42|null|86400000|true|true|200|Hi|" + `{"width":800,"height":600}` +
		"|true|true|1|true|false|yes|42|function|true|own"
	if got.String() != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFrames(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		await page.setContent('<iframe name="inner" srcdoc="<button onclick=&quot;this.textContent=\'done\'&quot;>Press</button>"></iframe>');
		await page.waitForFunction(() => document.querySelector('iframe').contentDocument.querySelector('button'));
		const out = [];
		const fl = page.frameLocator('iframe');
		await fl.getByRole('button', { name: 'Press' }).click();
		out.push(await fl.locator('button').textContent());
		out.push(await page.locator('iframe').contentFrame().getByText('done').count());
		out.push(page.frames().length);
		const f = page.frame('inner');
		out.push(f.name(), f.parentFrame() === page.mainFrame(), page.mainFrame().childFrames().length);
		out.push(await f.locator('button').textContent());
		out.push(await f.evaluate(() => document.body.children.length));
		out.push(fl.first().owner().toString());
		return out.join('|');
	`)
	if got.String() != "done|1|2|inner|true|1|done|1|frameLocator('iframe').first().owner()" {
		t.Errorf("got %s", got)
	}
}

func TestNetworkWaitsAndEvents(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		await page.goto(baseURL + '/slow.html?delay=50');
		const out = [];
		const seen = [];
		const onReq = (r) => seen.push(r.method() + ' ' + new URL(r.url()).pathname);
		page.on('request', onReq);
		const [resp] = await Promise.all([
			page.waitForResponse('**/api/slow*'),
			page.getByRole('button', { name: 'Load data' }).click(),
		]);
		out.push(resp.status(), JSON.stringify(Object.keys(await resp.json())), (await resp.text()).length > 0, (await resp.body()).length > 0);
		out.push(resp.headers()['content-type']);
		out.push(await resp.headerValue('Content-Type'));
		page.off('request', onReq);
		const [req] = await Promise.all([
			page.waitForRequest(r => r.url().includes('/api/slow')),
			page.getByRole('button', { name: 'Load data' }).click(),
		]);
		out.push(req.method(), req.resourceType());
		const [r3] = await Promise.all([
			page.waitForResponse(/api\/slow/),
			page.getByRole('button', { name: 'Load data' }).click(),
		]);
		out.push(r3.ok());
		out.push(seen.includes('GET /api/slow'));
		await page.getByTestId('data-result').waitFor();
		await Promise.all([page.waitForURL('**/todo.html'), page.goto(baseURL + '/todo.html')]);
		await page.waitForURL(/todo/);
		await page.waitForURL(u => u.pathname === '/todo.html');
		const msgs = [];
		page.once('console', m => msgs.push(m.type() + ':' + m.text()));
		await page.evaluate(() => { console.log('one'); console.warn('two'); });
		await page.waitForTimeout(100);
		out.push(msgs.join(','));
		const [err] = await Promise.all([page.waitForEvent('pageerror'), page.evaluate(() => setTimeout(() => { throw new Error('boom') }, 0))]);
		out.push(err.message);
		const t0 = Date.now();
		const e2 = await page.waitForEvent('popup', { timeout: 100 }).catch(e => e);
		out.push(e2.name, e2.message);
		return out.join('|');
	`)
	want := `200|["ms","ok"]|true|true|application/json|application/json|GET|fetch|true|true|log:one|boom|TimeoutError|page.waitForEvent: Timeout 100ms exceeded while waiting for event "popup"`
	if got.String() != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRoutes(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		const out = [];
		await page.route('**/api/todos', route => route.fulfill({ json: [{ id: 1, title: 'mocked' }] }));
		await page.goto(baseURL + '/');
		out.push(JSON.stringify(await page.evaluate(async () => (await fetch('/api/todos')).json())));
		await page.unroute('**/api/todos');
		out.push((await page.evaluate(async () => (await fetch('/api/todos')).json())).length > 1);
		await page.route(/api\/health/, async (route, request) => {
			out.push('intercepted ' + request.method());
			const resp = await route.fetch();
			const body = await resp.json();
			await route.fulfill({ response: resp, json: { ...body, patched: true } });
		});
		out.push(JSON.stringify(await page.evaluate(async () => (await fetch('/api/health')).json())));
		await page.route(url => url.pathname === '/blocked', route => route.abort());
		out.push(await page.evaluate(() => fetch('/blocked').then(() => 'loaded', () => 'aborted')));
		const h1 = route => route.fulfill({ body: 'one' });
		const h2 = route => route.fallback();
		await page.route('**/multi', h1);
		await page.route('**/multi', h2);
		out.push(await page.evaluate(() => fetch('/multi').then(r => r.text())));
		await page.unroute('**/multi', h1);
		out.push(await page.evaluate(() => fetch('/multi').then(r => r.status)));
		await context.route('**/ctx', route => route.fulfill({ status: 201, contentType: 'text/plain', body: 'from context' }));
		out.push(await page.evaluate(() => fetch('/ctx').then(r => r.status + ' ' + r.headers.get('content-type'))));
		await page.route('**/api/todos', route => route.continue({ headers: { ...route.request().headers(), 'x-extra': '1' } }));
		out.push((await page.evaluate(async () => (await fetch('/api/todos')).status)));
		await page.unrouteAll();
		await page.route('**/throws', () => { throw new Error('handler broke') });
		await page.evaluate(() => fetch('/throws').then(r => r.status, () => 'failed'));
		return out.join('|');
	`)
	want := `[{"id":1,"title":"mocked"}]|true|intercepted GET|{"patched":true,"status":"ok"}|aborted|one|404|201 text/plain|200`
	if got.String() != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDialogsAndPopups(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		const out = [];
		await page.goto(baseURL + '/dialogs.html');
		const result = page.getByTestId('dialog-result');
		await page.getByRole('button', { name: 'Show confirm' }).click();
		out.push(await result.textContent());
		page.once('dialog', async d => { out.push(d.type() + ':' + d.message() + ':' + d.defaultValue()); await d.accept('Ada'); });
		await page.getByRole('button', { name: 'Show prompt' }).click();
		out.push(await result.textContent());
		page.on('dialog', d => d.dismiss());
		await page.getByRole('button', { name: 'Show prompt' }).click();
		out.push(await result.textContent());
		page.removeAllListeners('dialog');
		// The click completes only once the alert is closed.
		const waiting = page.waitForEvent('dialog');
		const clicked = page.getByRole('button', { name: 'Show alert' }).click();
		const dialog = await waiting;
		out.push(dialog.message());
		await dialog.accept();
		await clicked;
		await page.goto(baseURL + '/popup.html');
		const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open popup' }).click()]);
		await popup.waitForLoadState();
		out.push(new URL(popup.url()).pathname, popup.opener !== undefined);
		out.push(context.pages().length);
		await popup.getByRole('button').first().click();
		await page.getByText('Popup says').waitFor();
		out.push(await page.getByTestId('popup-status').textContent());
		return out.join('|');
	`)
	want := "Cancelled|prompt:What is your name?:stranger|Hello, Ada!|Prompt cancelled|Hello from the demo app|/popup-content.html|true|2|Popup says: done"
	if got.String() != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDownload(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	got := e.ok(`
		await page.route('**/report.csv', route => route.fulfill({ body: 'a,b\n1,2\n', headers: { 'content-disposition': 'attachment; filename="report.csv"' } }));
		await page.goto(baseURL + '/');
		await page.setContent('<a href="/report.csv">Download</a>');
		const [download] = await Promise.all([page.waitForEvent('download'), page.getByText('Download').click()]);
		await download.saveAs(` + "`" + dir + `/saved.csv` + "`" + `);
		return download.suggestedFilename() + '|' + (await download.failure()) + '|' + download.url().endsWith('/report.csv');
	`)
	if got.String() != "report.csv|null|true" {
		t.Errorf("got %s", got)
	}
}

func TestErrors(t *testing.T) {
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	je := e.fails(`await page.goto('http://127.0.0.1:` + strconv.Itoa(port) + `/');`)
	wantContains(t, je.Message, "page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:"+strconv.Itoa(port)+"/")
	wantContains(t, je.Stack, "TestErrors.js:2")
	e.ok(`const p = await context.newPage(); await page.close(); globalThis.page = p;`)
	je = e.fails(`await page.setContent('<p>x</p>'); await page.getByRole('button').click({ timeout: 200 });`)
	if je.Type != "TimeoutError" {
		t.Errorf("type %q", je.Type)
	}
	wantContains(t, je.Message, "locator.click: Timeout 200ms exceeded.")
	got := e.ok(`
		const { errors } = __ferridriver_require('@playwright/test');
		const err = await page.locator('#nope').click({ timeout: 100 }).catch(e => e);
		const strict = await page.setContent('<b>1</b><b>2</b>').then(() => page.locator('b').textContent()).catch(e => e);
		return [err instanceof errors.TimeoutError, err instanceof Error, strict.name, strict.message.split('\n')[0]].join('|');
	`)
	if got.String() != "true|true|Error|locator.textContent: Error: strict mode violation: locator('b') resolved to 2 elements:" {
		t.Errorf("got %s", got)
	}
	je = e.fails(`page.evaluate(class X {})`)
	wantContains(t, je.Message, "a class cannot be evaluated")
}

func TestAPIRequest(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		const { request } = __ferridriver_require('@playwright/test');
		const api = await request.newContext();
		const out = [];
		const list = await api.get('/api/todos');
		out.push(list.status(), list.ok(), Array.isArray(await list.json()), list.headers()['content-type']);
		const created = await api.post('/api/todos', { data: { title: 'from api' } });
		out.push(created.status(), (await created.json()).title);
		const del = await api.delete('/api/todos/999999');
		out.push(del.status(), del.ok());
		const head = await api.fetch('/api/health', { method: 'HEAD' });
		out.push(head.status());
		const viaPage = await page.request.get(baseURL + '/api/health');
		out.push((await viaPage.text()).includes('ok'));
		const viaCtx = await context.request.get(baseURL + '/api/health', { params: { a: 1 } });
		out.push(viaCtx.url().endsWith('/api/health?a=1'));
		await api.dispose();
		return out.join('|');
	`)
	if got.String() != "200|true|true|application/json|201|from api|404|false|200|true|true" {
		t.Errorf("got %s", got)
	}
}

func TestSharedBrowserFacade(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		const { chromium } = __ferridriver_require('playwright');
		const browser = await chromium.launch({ headless: false });
		const ctx = await browser.newContext({ viewport: { width: 500, height: 400 }, locale: 'fr-FR' });
		const p = await ctx.newPage();
		await p.goto('/todo.html');
		const out = [p.url().startsWith(baseURL), JSON.stringify(p.viewportSize()), await p.evaluate(() => navigator.language)];
		out.push(browser.contexts().length, browser.isConnected(), typeof browser.version());
		const p2 = await browser.newPage();
		out.push(browser.contexts().length);
		await p2.close();
		await browser.close();
		out.push(browser.isConnected(), p.isClosed());
		return out.join('|');
	`)
	if got.String() != `true|{"width":500,"height":400}|fr-FR|1|true|string|2|false|true` {
		t.Errorf("got %s", got)
	}
}

func TestWaitForNavigation(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		await page.goto(baseURL + '/');
		const [r] = await Promise.all([page.waitForNavigation({ url: '**/table.html' }), page.getByRole('link', { name: 'Data table' }).click()]);
		return String(r) + '|' + page.url().endsWith('/table.html');
	`)
	if got.String() != "null|true" {
		t.Errorf("got %s", got)
	}
}

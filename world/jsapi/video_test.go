package jsapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordVideo on a context created from JS, and page.video() as in
// Playwright: null without recordVideo; path() known while the page is
// open (asked twice: playwright-go's own Video waits for the page to
// close on a second call); saveAs() waiting for the page to close;
// delete().
func TestRecordVideo(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	got := e.ok(`
		const out = {};
		out.plain = page.video();
		const ctx = await context.browser().newContext({ recordVideo: { dir: ` + jsString(dir) + `, size: { width: 320, height: 240 } } });
		const p = await ctx.newPage();
		await p.goto(baseURL + '/todo.html');
		await p.getByPlaceholder('What needs to be done?').fill('film me');
		const v = p.video();
		out.same = v === p.video();
		out.path = await v.path();
		out.again = await v.path();
		// saveAs waits for the page to close, so it resolves after close().
		const saved = v.saveAs(` + jsString(filepath.Join(dir, "saved", "copy.webm")) + `);
		await new Promise((r) => setTimeout(r, 200));
		await ctx.close();
		await saved;
		out.closedPath = await p.video().path();
		return JSON.stringify(out);
	`).String()
	if !strings.Contains(got, `"plain":null`) || !strings.Contains(got, `"same":true`) {
		t.Fatalf("page.video(): %s", got)
	}
	var raw string
	for _, f := range []string{"path", "again", "closedPath"} {
		i := strings.Index(got, `"`+f+`":"`)
		if i < 0 {
			t.Fatalf("no %s in %s", f, got)
		}
		v := got[i+len(f)+4:]
		v = v[:strings.Index(v, `"`)]
		if raw == "" {
			raw = v
		} else if v != raw {
			t.Errorf("%s = %s, want %s", f, v, raw)
		}
	}
	if filepath.Dir(raw) != dir || filepath.Ext(raw) != ".webm" {
		t.Errorf("the video is %s, want a .webm in %s", raw, dir)
	}
	for _, f := range []string{raw, filepath.Join(dir, "saved", "copy.webm")} {
		b, err := os.ReadFile(f)
		if err != nil || len(b) < 100 || string(b[:4]) != "\x1a\x45\xdf\xa3" {
			t.Errorf("%s is not a WebM video (%d bytes, %v)", f, len(b), err)
		}
	}

	e.ok(`
		const ctx = await context.browser().newContext({ recordVideo: { dir: ` + jsString(dir) + ` } });
		const p = await ctx.newPage();
		await p.goto(baseURL + '/');
		const path = await p.video().path();
		await ctx.close();
		await p.video().delete();
		globalThis.deleted = path;
	`)
	if _, err := os.Stat(e.ok(`return deleted`).String()); !os.IsNotExist(err) {
		t.Errorf("video.delete() left the file: %v", err)
	}

	je := e.fails(`await context.browser().newContext({ recordVideo: { size: { width: 10, height: 10 } } })`)
	wantContains(t, je.Error(), "recordVideo.dir is required")
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// devices comes from the driver's own descriptors, and a context made
// from one emulates that device.
func TestDevices(t *testing.T) {
	e := newEnv(t)
	got := e.ok(`
		const { devices } = __ferridriver_require('@playwright/test');
		const { devices: fromCore } = __ferridriver_require('playwright-core');
		const d = devices['iPhone 13'];
		const ctx = await context.browser().newContext({ ...devices['iPhone 13'] });
		const p = await ctx.newPage();
		await p.goto(baseURL + '/');
		const seen = await p.evaluate(() => [innerWidth, innerHeight, devicePixelRatio, navigator.userAgent, 'ontouchstart' in window, screen.width, screen.height].join('|'));
		await ctx.close();
		return [Object.keys(devices).length > 100, fromCore === devices, 'Desktop Chrome' in devices, 'No such phone' in devices,
			d.viewport.width, d.viewport.height, d.deviceScaleFactor, d.isMobile, d.hasTouch, d.defaultBrowserType, seen, d.userAgent].join(' ; ');
	`).String()
	parts := strings.Split(got, " ; ")
	ua := parts[len(parts)-1]
	want := "true ; true ; true ; false ; 390 ; 664 ; 3 ; true ; true ; webkit ; 390|664|3|" + ua + "|true|390|844 ; " + ua
	if got != want || !strings.Contains(ua, "iPhone") {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

package jsapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/jsapi"
)

// A file: page opened by code whose grant is one folder cannot bring
// other local files into the browser: frames, a new location and the
// code's own routes letting a load through are all held to the grant.
func TestSandboxFilePagesStayInTheGrant(t *testing.T) {
	root := t.TempDir()
	secret := filepath.Join(root, "secret.txt")
	dir := filepath.Join(root, "proj")
	testenv.WriteFiles(t, root, map[string]string{
		"secret.txt":           "TOP-SECRET",
		"proj/data/frame.html": `<html><body>FRAME-PAGE<iframe src="file://` + secret + `"></iframe><img src="file://` + secret + `"></body></html>`,
		"proj/data/ok.html":    `<html><body>OK-PAGE</body></html>`,
	})
	e := newEnvIn(t, nil, jsbridge.HostMCP, dir)
	grant, err := capability.NewFSPolicy([]string{"data"}, nil, capability.FSGrant{Read: "--allow-read"})
	if err != nil {
		t.Fatal(err)
	}
	jsbridge.SetScriptFiles(e.vm, grant)
	frame := "file://" + filepath.Join(dir, "data/frame.html")

	got := e.ok(`await page.goto(` + jsq(frame) + `); await page.waitForTimeout(200);
		const out = []; for (const f of page.frames()) out.push(f.url() + " " + await f.content().catch(e => e.message)); return out.join("\n")`).String()
	if !strings.Contains(got, "FRAME-PAGE") || strings.Contains(got, "TOP-SECRET") {
		t.Fatalf("frames of a granted page:\n%s", got)
	}
	// The page moving itself to a file outside the grant (Chromium may
	// still be replacing the aborted load by its error page: content()
	// then fails, and the secret is not there either).
	got = e.ok(`await page.evaluate(() => { location.href = ` + jsq("file://"+secret) + `; }); await page.waitForTimeout(300); return page.url() + " " + await page.content().catch(e => e.message)`).String()
	if strings.Contains(got, "TOP-SECRET") {
		t.Fatalf("location change out of the grant: %s", got)
	}
	// A route of the code that lets every load through.
	got = e.ok(`const errs = [];
		await page.route("**", async (r) => { try { await r.continue(); } catch (e) { errs.push(e.message); await r.abort(); } });
		// The refused location change above may still be turning into
		// Chromium's error page: a goto it interrupts is tried again.
		await page.goto(` + jsq(frame) + `).catch(async (e) => {
			if (!/interrupted by another navigation/.test(e.message)) throw e;
			await page.waitForTimeout(500);
			await page.goto(` + jsq(frame) + `);
		});
		await page.waitForTimeout(300);
		const out = [...errs]; for (const f of page.frames()) out.push(await f.content().catch(e => e.message));
		await page.unrouteAll();
		return out.join("\n")`).String()
	if strings.Contains(got, "TOP-SECRET") || !strings.Contains(got, "route.continue: loading file://"+secret+" is not allowed") {
		t.Fatalf("route.continue out of the grant:\n%s", got)
	}
	// A file of the grant, directly: allowed.
	if got := e.ok(`await page.goto("file://" + ` + jsq(filepath.Join(dir, "data/ok.html")) + `); return await page.content()`).String(); !strings.Contains(got, "OK-PAGE") {
		t.Fatalf("granted page: %s", got)
	}
	je := e.fails(`await page.goto(` + jsq("file://"+secret) + `)`)
	wantContains(t, je.Error(), `page.goto: reading "`+secret+`" is not allowed: it is outside the folders --allow-read grants (data)`)
	if _, err := os.Stat(secret); err != nil {
		t.Fatal(err)
	}
}

func jsq(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `'`, `\'`) + "'"
}

// Code whose grant writes one folder cannot record a video, save one or
// have a snapshot matcher write outside it; inside, it can.
func TestSandboxVideosStayInTheGrant(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnvIn(t, nil, jsbridge.HostMCP, dir)
	grant, err := capability.NewFSPolicy(nil, []string{"out"}, capability.FSGrant{Read: "--allow-read", Write: "--allow-write"})
	if err != nil {
		t.Fatal(err)
	}
	jsbridge.SetScriptFiles(e.vm, grant)
	outside := filepath.Join(root, "videos")

	je := e.fails(`await context.browser().newContext({ recordVideo: { dir: ` + jsq(outside) + ` } })`)
	wantContains(t, je.Error(), `browser.newContext: writing "`+outside+`" is not allowed: it is outside the folders --allow-write grants (out)`)

	e.ok(`globalThis.ctx = await context.browser().newContext({ recordVideo: { dir: "out/videos" } });
		globalThis.p = await ctx.newPage(); await p.goto(baseURL + '/');`)
	je = e.fails(`await p.video().saveAs(` + jsq(filepath.Join(root, "copy.webm")) + `)`)
	wantContains(t, je.Error(), `video.saveAs: writing "`+filepath.Join(root, "copy.webm")+`" is not allowed`)
	got := e.ok(`const v = p.video(); const path = await v.path(); const saved = v.saveAs("out/copy.webm"); await ctx.close(); await saved; return path`).String()
	if filepath.Dir(got) != filepath.Join(dir, "out", "videos") {
		t.Errorf("the video is %s, want it in out/videos", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "copy.webm")); err != nil {
		t.Errorf("video.saveAs inside the grant: %v", err)
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Errorf("the refused folder exists: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "copy.webm")); !os.IsNotExist(err) {
		t.Errorf("the refused copy exists: %v", err)
	}

	// Snapshot matchers: a baseline outside the grant is refused (the
	// default template puts it beside the feature file); one inside is
	// written.
	e.api.SetSnapshotSettings(jsapi.SnapshotSettings{OutputDir: filepath.Join(dir, "out", "results")})
	e.api.BeginTestCase(jsapi.TestCase{File: "features/shots.feature", Title: "shots"})
	je = e.fails(`expect('text').toMatchSnapshot('a.txt')`)
	wantContains(t, je.Error(), `toMatchSnapshot: reading "`+filepath.Join(dir, "features", "shots.feature-snapshots")+`/a-`)
	// Readable but not writable: a missing baseline is not written.
	readable, err := capability.NewFSPolicy([]string{"features"}, []string{"out"}, capability.FSGrant{Read: "--allow-read", Write: "--allow-write"})
	if err != nil {
		t.Fatal(err)
	}
	jsbridge.SetScriptFiles(e.vm, readable)
	je = e.fails(`expect('text').toMatchSnapshot('c.txt')`)
	wantContains(t, je.Error(), `toMatchSnapshot: writing "`+filepath.Join(dir, "features", "shots.feature-snapshots")+`/c-`)
	jsbridge.SetScriptFiles(e.vm, grant)
	e.api.SetSnapshotSettings(jsapi.SnapshotSettings{OutputDir: filepath.Join(dir, "out", "results"), PathTemplate: "{testDir}/out/snaps/{arg}{ext}"})
	e.ok(`expect('text').toMatchSnapshot('b.txt')`)
	if b, err := os.ReadFile(filepath.Join(dir, "out", "snaps", "b.txt")); string(b) != "text" {
		t.Errorf("baseline inside the grant: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "features")); !os.IsNotExist(err) {
		t.Errorf("the refused baseline's folder exists: %v", err)
	}
}
